"""The `look(row, col)` tool of the hard levels: which sides of the cells around a cell are open."""
from __future__ import annotations

from typing import Any, ClassVar

from bc_common.bootcamp import Tool
from bc_common.errors import ToolError

from .maze import MOVES, decode

NAMES = {"U": "up", "R": "right", "D": "down", "L": "left"}


class LookTool(Tool):
    """The 3x3 neighbourhood of a cell, one line per cell: its open sides. Step reward 0. Offered on every row
    (tools are per bootcamp) but refused with a typed error where the task does not allow it."""

    tool_schema: ClassVar[dict[str, Any]] = {
        "type": "function",
        "function": {
            "name": "look",
            "description": "The open sides (up, right, down, left) of the cell at (row, col) and of its neighbours.",
            "parameters": {
                "type": "object",
                "properties": {"row": {"type": "integer", "description": "Row, 0 at the top."},
                               "col": {"type": "integer", "description": "Column, 0 at the left."}},
                "required": ["row", "col"],
                "additionalProperties": False,
            },
        },
    }

    def setup_state(self, identity: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        if not isinstance(identity, dict) or not isinstance(identity.get("open"), list):
            raise ToolError("bad_identity", "this tool was created without the maze")
        return {"open": decode(identity["open"]), "allowed": bool(identity.get("look")), "calls": 0}

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[str, float, dict]:
        state = self.state(instance_id)
        if not state["allowed"]:
            raise ToolError("not_available", "look is not available for this maze: read it from the picture")
        state["calls"] += 1
        open_, r, c = state["open"], parameters["row"], parameters["col"]
        rows, cols = len(open_), len(open_[0])
        if not (0 <= r < rows and 0 <= c < cols):
            raise ToolError("outside", f"({r}, {c}) is outside the maze (rows 0-{rows - 1}, columns 0-{cols - 1})")
        lines = []
        for rr in range(max(0, r - 1), min(rows, r + 2)):
            for cc in range(max(0, c - 1), min(cols, c + 2)):
                sides = [NAMES[d] for d, (_, _, bit) in MOVES.items() if open_[rr][cc] & bit]
                lines.append(f"({rr}, {cc}): open {', '.join(sides) or 'nowhere'}")
        return "\n".join(lines), 0.0, {"calls": state["calls"]}
