"""A verl `BaseTool` that runs one of our bootcamp tools, keeping its state for the whole trajectory.

verl 0.9.1 calls `create` -> `execute` -> `release` around every single tool call and never `calc_reward`,
so the bootcamp tool's instance would be wiped before each call. This adapter keeps one `ToolSession`
(bc_common.tool_runtime) per trajectory instead, keyed by the trajectory (`agent_data.bc_trajectory_id`, set
by our agent loop, else `agent_data.request_id`); verl's per-call instance only carries the create kwargs.
`BcAgentLoop` ends the session when the trajectory ends (`finish_trajectory`: calc_reward, then release).

    tools:
      - class_name: bc_train.verl_tool.BcVerlTool
        config: {type: native, bc_class_name: bootcamps.arithmetic.tools.CalculatorTool, bc_config: {},
                 bc_tool_schema: {...the full schema, validated before execute...}}
        tool_schema: {...the schema verl shows the model...}

A `bc-toolserve` tool config (class `bc_common.remote_tool.RemoteTool`) works the same way: that class is a
bootcamp Tool whose calls go to the tool server.
"""
from __future__ import annotations

import uuid
from collections import OrderedDict
from typing import Any

from verl.tools.base_tool import BaseTool
from verl.tools.schemas import OpenAIFunctionToolSchema, ToolResponse

from bc_common.tool_config import ToolSpec
from bc_common.tool_runtime import ToolRuntime, ToolSession

from .parquet_rows import loads_json_field

DEFAULT_MAX_SESSIONS = 100_000


def trajectory_key(agent_data: Any) -> str | None:
    """The key that names one trajectory across verl's per-call create/release."""
    if agent_data is None:
        return None
    return getattr(agent_data, "bc_trajectory_id", None) or getattr(agent_data, "request_id", None)


def decode_create_kwargs(create_kwargs: Any) -> dict[str, Any]:
    """Our rows store create kwargs as JSON text (fixed parquet shape); plain dicts pass through."""
    value = loads_json_field(create_kwargs or {})
    return dict(value) if isinstance(value, dict) else {}


class BcVerlTool(BaseTool):
    """verl adapter around a bootcamp `Tool` (class in `config.bc_class_name`)."""

    def __init__(self, config: dict[str, Any], tool_schema: OpenAIFunctionToolSchema | None):
        super().__init__(config, tool_schema)
        bc_schema = config.get("bc_tool_schema") or self.tool_schema.model_dump(exclude_unset=True,
                                                                                 exclude_none=True)
        spec = ToolSpec(class_name=config["bc_class_name"], config=dict(config.get("bc_config") or {}),
                        tool_schema=bc_schema, source="verl tool config")
        self.runtime = ToolRuntime.from_specs([spec])
        self.bc_name = spec.name
        self.max_sessions = int(config.get("max_sessions", DEFAULT_MAX_SESSIONS))
        self._pending: dict[str, dict[str, Any]] = {}
        self._sessions: OrderedDict[str, ToolSession] = OrderedDict()

    async def create(self, instance_id: str | None = None, create_kwargs: Any = None,
                     **kwargs: Any) -> tuple[str, ToolResponse]:
        """Remember the row's create kwargs for this call; the bootcamp instance is made on first execute."""
        instance_id = instance_id or uuid.uuid4().hex
        self._pending[instance_id] = decode_create_kwargs(create_kwargs)
        return instance_id, ToolResponse()

    async def execute(self, instance_id: str, parameters: dict[str, Any], agent_data: Any = None,
                      **kwargs: Any) -> tuple[ToolResponse, float, dict]:
        """Run the call in the trajectory's session. Bad calls come back as error text, never raise."""
        key = trajectory_key(agent_data) or instance_id
        session = self._sessions.get(key)
        if session is None:
            session = self.runtime.session({self.bc_name: self._pending.get(instance_id, {})})
            self._sessions[key] = session
            await self._evict()
        result = await session.call(self.bc_name, parameters)
        metrics = dict(result.metrics)
        if result.error:
            metrics["error"] = result.error["type"]
        return ToolResponse(text=result.text), float(result.reward), metrics

    async def release(self, instance_id: str, **kwargs: Any) -> None:
        """verl releases after every call; the trajectory's session lives on until `finish_trajectory`."""
        self._pending.pop(instance_id, None)

    async def finish_trajectory(self, key: str) -> float | None:
        """End a trajectory: the tool's `calc_reward`, then release. None when the tool was never used."""
        session = self._sessions.pop(key, None)
        if session is None:
            return None
        rewards = await session.close()
        return float(sum(rewards.values()))

    def live_sessions(self) -> int:
        return len(self._sessions)

    async def _evict(self) -> None:
        # Only loops that never call finish_trajectory (e.g. verl's plain tool_agent) fill this up.
        while len(self._sessions) > self.max_sessions:
            _, oldest = self._sessions.popitem(last=False)
            await oldest.close()
