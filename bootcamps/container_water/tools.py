"""The optional `measure_bar` tool: the exact height of a bar the model names. It never tells the answer."""
from __future__ import annotations

from typing import Any, ClassVar

from bc_common.bootcamp import Tool
from bc_common.errors import ToolError


class MeasureBarTool(Tool):
    """Step reward 0: measuring earns nothing by itself."""

    tool_schema: ClassVar[dict[str, Any]] = {
        "type": "function",
        "function": {
            "name": "measure_bar",
            "description": "The exact height of one bar of the chart, by its number (bars are numbered from 1 at "
                           "the left).",
            "parameters": {
                "type": "object",
                "properties": {"bar": {"type": "integer", "description": "The bar's number, e.g. 3."}},
                "required": ["bar"],
                "additionalProperties": False,
            },
        },
    }

    def setup_state(self, identity: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        if not isinstance(identity, dict) or not isinstance(identity.get("heights"), list):
            raise ToolError("bad_identity", "this tool was created without the chart's bars")
        return {"heights": identity["heights"], "calls": 0}

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[str, float, dict]:
        state = self.state(instance_id)
        state["calls"] += 1
        bar, n = parameters["bar"], len(state["heights"])
        if not 1 <= bar <= n:
            raise ToolError("no_such_bar", f"there is no bar {bar}; the bars are numbered 1 to {n}")
        return f"Bar {bar} is {state['heights'][bar - 1]} units tall.", 0.0, {"calls": state["calls"]}
