"""The `Tool` base class: a function the model may call, with state per trajectory.

    class CalculatorTool(Tool):
        tool_schema = {"type": "function", "function": {"name": "calculate", "parameters": {...}}}

        async def execute(self, instance_id, parameters, **kwargs):
            return ToolResult(f"{parameters['expression']} = {safe_eval(parameters['expression'])}")

Authors import it from `bc_common.bootcamp` with the rest of the contract.
"""
from __future__ import annotations

from typing import Any, ClassVar

from .seeding import new_instance_id
from .types import ToolResult


class Tool:
    """A tool the model may call. State lives per instance (one per trajectory) and survives across calls.

    `tool_schema` is the OpenAI function schema `{type: function, function: {name, description, parameters}}`,
    declared on the class (a seed-format YAML may pass another). Arguments are validated against it before
    `execute` is called. Step rewards must not be positive for merely calling a tool.
    """

    tool_schema: dict[str, Any] = {}
    default_config: ClassVar[dict[str, Any]] = {}

    def __init__(self, config: dict[str, Any] | None = None, tool_schema: dict[str, Any] | None = None):
        self.config = {**self.default_config, **(config or {})}
        self.tool_schema = tool_schema or dict(type(self).tool_schema or {})
        self.name = self.tool_schema.get("function", {}).get("name") or type(self).__name__
        self._instances: dict[str, dict[str, Any]] = {}

    def get_openai_tool_schema(self) -> dict[str, Any]:
        return self.tool_schema

    async def create(self, instance_id: str | None = None, identity: dict[str, Any] | None = None,
                     **kwargs: Any) -> str:
        """Start an instance for one trajectory; returns its id. Override `setup_state` for custom state."""
        instance_id = instance_id or new_instance_id()
        self._instances[instance_id] = self.setup_state(identity or {}, **kwargs)
        return instance_id

    def setup_state(self, identity: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        """Initial per-instance state. Default: the identity and an empty call log."""
        return {"identity": identity, "calls": 0}

    def state(self, instance_id: str) -> dict[str, Any]:
        """The state of a live instance (KeyError names the id if it was never created or is released)."""
        try:
            return self._instances[instance_id]
        except KeyError:
            raise KeyError(f"no live instance {instance_id!r} of tool {self.name!r}") from None

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> ToolResult:
        """Run one call on valid `parameters`: `ToolResult(text for the model, step reward <= 0 unless earned,
        metrics)` (the seed's `(text, reward, metrics)` tuple is accepted too). Raise `ToolError(kind, message)`
        for a call that fails: the model reads the message, the turn records the kind."""
        raise NotImplementedError

    async def calc_reward(self, instance_id: str, **kwargs: Any) -> float:
        """A trajectory-level tool reward (default 0)."""
        return 0.0

    async def release(self, instance_id: str, **kwargs: Any) -> None:
        """Free the instance. Idempotent."""
        self._instances.pop(instance_id, None)
