"""The `tour_length` tool: the length of a proposed tour, or why it is not a tour. It never tells the optimum,
and it answers at most `CHECKS` calls a task (enough to check an answer, too few to search with it)."""
from __future__ import annotations

from typing import Any, ClassVar

from bc_common.bootcamp import Tool
from bc_common.errors import ToolError

from .generator import CHECKS
from .solver import matrix, tour_length, tour_problem


class TourLengthTool(Tool):
    """Step reward 0: checking a tour earns nothing by itself."""

    tool_schema: ClassVar[dict[str, Any]] = {
        "type": "function",
        "function": {
            "name": "tour_length",
            "description": "Length of a closed tour (cities numbered from 1, each visited once, the return to the "
                           f"first city included), or what is wrong with the list. At most {CHECKS} calls per task.",
            "parameters": {
                "type": "object",
                "properties": {"tour": {"type": "array", "items": {"type": "integer"},
                                        "description": "City numbers in visiting order, e.g. [1, 4, 2, 3]."}},
                "required": ["tour"],
                "additionalProperties": False,
            },
        },
    }

    def setup_state(self, identity: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        coords = identity.get("coords") if isinstance(identity, dict) else None
        if not isinstance(coords, list) or not coords:
            raise ToolError("bad_identity", "this tool was created without the task's cities")
        return {"dist": matrix(coords), "calls": 0}

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[str, float, dict]:
        state = self.state(instance_id)
        state["calls"] += 1
        if state["calls"] > CHECKS:
            raise ToolError("budget_spent", f"this task allows {CHECKS} checks and they are spent; give your answer")
        tour, n = parameters["tour"], len(state["dist"])
        if len(tour) > 4 * n + 4:
            raise ToolError("invalid_tour", f"the list has {len(tour)} entries; there are only {n} cities")
        problem = tour_problem(tour, n)
        if problem:
            raise ToolError("invalid_tour", f"not a tour of all {n} cities: {problem}")
        return f"Tour length: {tour_length(tour, state['dist'])}", 0.0, {"calls": state["calls"]}
