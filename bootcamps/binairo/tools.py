"""The `check_grid` tool: which binairo rules a (partial) grid breaks. Calling it earns nothing."""
from __future__ import annotations

from typing import Any, ClassVar

from bc_common.answer_blocks import grid_lines
from bc_common.bootcamp import Tool

from .rules import violations


class CheckGridTool(Tool):
    """Reports every broken rule of the grid against this task's givens, or that the grid is solved."""

    tool_schema: ClassVar[dict[str, Any]] = {
        "type": "function",
        "function": {
            "name": "check_grid",
            "description": "Check a binairo grid against the rules and the givens of this puzzle. Rows are "
                           "strings of 0, 1 and . (empty); empty cells are allowed. Lists every broken rule.",
            "parameters": {
                "type": "object",
                "properties": {
                    "rows": {"type": "array", "maxItems": 64, "items": {"type": "string", "maxLength": 256},
                             "description": "the grid, one string per row, e.g. [\"0110\", \"1.01\", ...]"},
                },
                "required": ["rows"],
                "additionalProperties": False,
            },
        },
    }

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[str, float, dict]:
        state = self.state(instance_id)
        state["calls"] += 1
        rows = grid_lines("\n".join(parameters["rows"]))
        broken = violations(rows, state["identity"]["givens"])
        if not broken:
            return "Solved: the grid is complete and breaks no rule.", 0.0, {"calls": state["calls"]}
        shown = broken[:20]
        more = f"\n... and {len(broken) - len(shown)} more" if len(broken) > len(shown) else ""
        text = "Not solved:\n" + "\n".join(f"- {b}" for b in shown) + more
        return text, 0.0, {"calls": state["calls"], "violations": len(broken)}
