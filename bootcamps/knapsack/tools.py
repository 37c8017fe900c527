"""The `evaluate_selection` tool: total weight and value of a selection, or why it is not allowed. It never
tells the optimum, and it answers at most `CHECKS` calls a task (enough to check an answer, too few to search
with it)."""
from __future__ import annotations

from typing import Any, ClassVar

from bc_common.bootcamp import Tool
from bc_common.errors import ToolError

from .generator import CHECKS
from .solver import selection_problem, totals


class EvaluateSelectionTool(Tool):
    """Step reward 0: checking a selection earns nothing by itself."""

    tool_schema: ClassVar[dict[str, Any]] = {
        "type": "function",
        "function": {
            "name": "evaluate_selection",
            "description": "Total weight and total value of a selection of items (numbered from 1, each at most "
                           f"once), and whether it fits the capacity. At most {CHECKS} calls per task.",
            "parameters": {
                "type": "object",
                "properties": {"items": {"type": "array", "items": {"type": "integer"},
                                         "description": "Item numbers to take, e.g. [2, 5, 7]."}},
                "required": ["items"],
                "additionalProperties": False,
            },
        },
    }

    def setup_state(self, identity: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        if not isinstance(identity, dict) or not identity.get("weights") or "capacity" not in identity:
            raise ToolError("bad_identity", "this tool was created without the task's items")
        return {"weights": identity["weights"], "values": identity["values"], "capacity": identity["capacity"],
                "calls": 0}

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[str, float, dict]:
        state = self.state(instance_id)
        state["calls"] += 1
        if state["calls"] > CHECKS:
            raise ToolError("budget_spent", f"this task allows {CHECKS} checks and they are spent; give your answer")
        items, weights, capacity = parameters["items"], state["weights"], state["capacity"]
        if len(items) > 4 * len(weights) + 4:
            raise ToolError("invalid_selection", f"the list has {len(items)} entries; there are only "
                                                 f"{len(weights)} items")
        problem = selection_problem(items, weights, capacity)
        if problem and not problem.startswith("total weight"):
            raise ToolError("invalid_selection", problem)
        weight, value = totals(items, weights, state["values"])
        verdict = f"over the capacity {capacity} by {weight - capacity}" if problem else f"fits the capacity {capacity}"
        return (f"Total weight: {weight}, total value: {value}; {verdict}.", 0.0, {"calls": state["calls"]})
