"""Steps tools and agent_loops: verl's tool registry runs create -> execute -> release on sample rows; every agent loop
imports and every row's agent_name is registered."""
from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from .failure import CheckFailed


def sample_arguments(schema: dict[str, Any]) -> dict[str, Any]:
    """Minimal arguments a tool's schema accepts (to exercise create -> execute -> release)."""
    by_type = {"string": "1", "number": 1, "integer": 1, "boolean": True, "array": [], "object": {}}
    params = schema.get("parameters") or {}
    out = {}
    for name in params.get("required") or []:
        prop = (params.get("properties") or {}).get(name, {})
        if prop.get("enum"):
            out[name] = prop["enum"][0]
        else:
            kind = prop.get("type", "string")
            out[name] = by_type.get(kind[0] if isinstance(kind, list) else kind, "1")
    return out


def check_tools(cfg: Any, rows: list[dict[str, Any]]) -> str:
    from verl.tools.tool_registry import load_all_tools
    from verl.utils.import_utils import resolve_config_path

    mt = cfg.actor_rollout_ref.rollout.multi_turn
    try:
        tool_list = load_all_tools(
            tool_config_path=resolve_config_path(mt.tool_config_path) if mt.tool_config_path else None,
            function_tool_path=resolve_config_path(mt.function_tool_path) if mt.function_tool_path else None)
    except Exception as exc:
        raise CheckFailed("tools", f"verl cannot load the tools: {type(exc).__name__}: {exc}") from None
    tools = {t.name: t for t in tool_list}
    for i, row in enumerate(rows):
        missing = set((row.get("extra_info") or {}).get("tools_kwargs") or {}) - set(tools)
        if missing:
            raise CheckFailed("tools", f"row {i} has tools_kwargs for {sorted(missing)}, not in the tool config")
    try:
        calls = asyncio.run(_exercise_tools(tools, rows))
    except CheckFailed:
        raise
    except Exception as exc:
        raise CheckFailed("tools", f"{type(exc).__name__}: {exc}") from None
    return f"{len(tools)} tool(s), {calls} create->execute->release call(s)"


def check_agent_loops(cfg: Any, rows: list[dict[str, Any]]) -> str:
    from hydra.utils import get_class
    from omegaconf import OmegaConf
    from verl.experimental.agent_loop.agent_loop import _agent_loop_registry
    from verl.utils.import_utils import resolve_config_path

    names = set(_agent_loop_registry)
    path = cfg.actor_rollout_ref.rollout.agent.agent_loop_config_path
    if path:
        try:
            entries = OmegaConf.load(resolve_config_path(path))
            for entry in entries:
                get_class(entry._target_)
                names.add(entry.name)
        except Exception as exc:
            raise CheckFailed("agent_loops", f"{type(exc).__name__}: {exc}") from None
    wanted = {r.get("agent_name") for r in rows} | {cfg.actor_rollout_ref.rollout.agent.default_agent_loop}
    missing = sorted(str(w) for w in wanted - names if w)
    if missing:
        raise CheckFailed("agent_loops", f"agent_name(s) {missing} not registered (have {sorted(names)})")
    return f"registered: {', '.join(sorted(names))}"


async def _exercise_tools(tools: dict[str, Any], rows: list[dict[str, Any]]) -> int:
    from ..verl_tool import BcVerlTool

    calls = 0
    for i, row in enumerate(rows):
        extra = row.get("extra_info") or {}
        agent_data = SimpleNamespace(bc_trajectory_id=f"check-{i}", request_id=f"check-{i}")
        for name in extra.get("tool_selection") or []:
            if name not in tools:
                raise CheckFailed("tools", f"row {i} selects tool {name!r}, which tool_config.yaml lacks")
            tool = tools[name]
            kwargs = (extra.get("tools_kwargs") or {}).get(name) or {}
            instance_id, _ = await tool.create(create_kwargs=kwargs.get("create_kwargs", {}))
            try:
                result = await tool.execute(instance_id, sample_arguments(tool.tool_schema.function.model_dump()),
                                            agent_data=agent_data)
            finally:
                await tool.release(instance_id)
            if not (isinstance(result, tuple) and len(result) == 3 and hasattr(result[0], "text")
                    and isinstance(result[1], (int, float))):
                raise CheckFailed("tools", f"{name}.execute returned {result!r}, not (ToolResponse, reward, metrics)")
            calls += 1
            if isinstance(tool, BcVerlTool) and await tool.finish_trajectory(f"check-{i}") is None:
                raise CheckFailed("tools", f"{name}: the trajectory's tool session was lost between calls")
    return calls
