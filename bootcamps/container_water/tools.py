"""The `measure_bar` tool: the exact height of a bar named by the tag the picture shows under it, a few times
per task. It never tells the answer, and without the picture there is no tag to name."""
from __future__ import annotations

from typing import Any, ClassVar

from bc_common.bootcamp import Tool
from bc_common.errors import ToolError


class MeasureBarTool(Tool):
    """Every call counts against the task's `measurements` budget (a call naming no bar too, so guessing tags
    spends it); rows without tags name bars by number, rows without a budget have none. Step reward 0."""

    tool_schema: ClassVar[dict[str, Any]] = {
        "type": "function",
        "function": {
            "name": "measure_bar",
            "description": "The exact height of one bar of the chart, named by the tag printed under it. Each task "
                           "allows only a few measurements.",
            "parameters": {
                "type": "object",
                "properties": {"bar": {"type": "string", "description": "The bar's tag as the chart shows it, "
                                                                        "e.g. KP."}},
                "required": ["bar"],
                "additionalProperties": False,
            },
        },
    }

    def setup_state(self, identity: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        if not isinstance(identity, dict) or not isinstance(identity.get("heights"), list):
            raise ToolError("bad_identity", "this tool was created without the chart's bars")
        heights = identity["heights"]
        tags = identity.get("tags") or [str(i + 1) for i in range(len(heights))]
        return {"heights": dict(zip([str(t).upper() for t in tags], heights, strict=False)),
                "budget": identity.get("measurements"), "calls": 0}

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[str, float, dict]:
        state = self.state(instance_id)
        if state["budget"] is not None and state["calls"] >= state["budget"]:
            raise ToolError("budget_spent", f"no measurements left: this task allows {state['budget']}")
        state["calls"] += 1
        bar = str(parameters["bar"]).strip().upper()
        if bar not in state["heights"]:
            raise ToolError("no_such_bar", f"no bar is tagged {parameters['bar']!r}; the tags are printed under "
                                           "the bars in the chart")
        return f"Bar {bar} is {state['heights'][bar]} units tall.", 0.0, {"calls": state["calls"]}
