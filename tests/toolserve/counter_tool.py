"""A tiny stateful tool for the tool-server tests: each instance counts, and may be told to sleep."""
from __future__ import annotations

import asyncio
from typing import Any

from bc_common.bootcamp import Tool
from bc_common.errors import ToolError

SCHEMA = {"type": "function", "function": {
    "name": "count", "description": "Add `step` to this instance's counter and return the total.",
    "parameters": {"type": "object", "properties": {
        "step": {"type": "integer", "description": "How much to add."},
        "sleep": {"type": "number", "description": "Seconds to wait first (tests of timeouts)."}},
        "required": ["step"]}}}


class CounterTool(Tool):
    """Per-instance counter; `calc_reward` is 1.0 when the counter reached the identity's target."""

    def setup_state(self, identity: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return {"identity": identity, "total": int(kwargs.get("start", 0))}

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[str, float, dict]:
        if parameters.get("sleep"):
            await asyncio.sleep(float(parameters["sleep"]))
        if parameters["step"] < 0:
            raise ToolError("negative_step", "step must not be negative")
        state = self.state(instance_id)
        state["total"] += parameters["step"]
        return str(state["total"]), 0.0, {"total": state["total"]}

    async def calc_reward(self, instance_id: str, **kwargs: Any) -> float:
        state = self.state(instance_id)
        return 1.0 if state["total"] == state["identity"].get("target") else 0.0


def write_config(path) -> str:
    """Write this tool's seed-format config YAML to `path`; returns the path as text."""
    import yaml

    path.write_text(yaml.safe_dump({"tools": [{"class_name": "tests.toolserve.counter_tool.CounterTool",
                                               "config": {"type": "native"}, "tool_schema": SCHEMA}]}))
    return str(path)
