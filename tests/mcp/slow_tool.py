"""A `calculate` tool that takes its time: a worker serving it under arithmetic's tool name keeps MCP tool calls in
flight for as long as a test needs (session ends, caps, shutdown)."""
from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from bc_common.bootcamp import Tool
from bootcamps.arithmetic.tools import CalculatorTool


class SlowCalculator(Tool):
    """Waits `config["delay"]` seconds, then answers "done"; its instances are counted by the worker like any."""

    tool_schema = CalculatorTool.tool_schema

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[str, float, dict]:
        self.state(instance_id)
        await asyncio.sleep(float(self.config.get("delay", 30)))
        return "done", 0.0, {}


def write_config(path: Path, delay: float) -> str:
    """A worker's tool config serving SlowCalculator as `calculate`; returns the path as text."""
    import yaml

    path.write_text(yaml.safe_dump({"tools": [{"class_name": "tests.mcp.slow_tool.SlowCalculator",
                                               "config": {"type": "native", "delay": delay},
                                               "tool_schema": CalculatorTool.tool_schema}]}))
    return str(path)
