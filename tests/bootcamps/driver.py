"""Plays a bootcamp's reference policy through its tools and interaction, without a model server."""
from __future__ import annotations

import asyncio
from typing import Any

from bc_common.bootcamp import Bootcamp
from bc_common.tool_config import load_interaction_config
from bc_common.tool_runtime import ToolRuntime


def play(bootcamp: Bootcamp, row: dict[str, Any], *, wrong: bool = False, max_steps: int = 12) -> list[dict]:
    """The message list of one episode played by the reference policy (wrong answers when `wrong`)."""
    return asyncio.run(_play(bootcamp, row, wrong, max_steps))


async def _play(bootcamp: Bootcamp, row: dict[str, Any], wrong: bool, max_steps: int) -> list[dict]:
    extra = row.get("extra_info", {})
    tools_kwargs = extra.get("tools_kwargs") or {}
    runtime = ToolRuntime.from_config(bootcamp.tool_config) if bootcamp.tool_config and tools_kwargs else None
    session = runtime.session({k: v.get("create_kwargs", {}) for k, v in tools_kwargs.items()},
                              list(tools_kwargs)) if runtime else None
    inter_kwargs = extra.get("interaction_kwargs") or {}
    interaction = load_interaction_config(bootcamp.interaction_config).instantiate() \
        if bootcamp.interaction_config and inter_kwargs else None
    identity = row["reward_model"]["ground_truth"]
    policy = bootcamp.policy(identity, tools=session.allowed if session else [])
    messages = list(row["prompt"])
    inst = await interaction.start_interaction(None, identity=inter_kwargs.get("identity")) if interaction else None
    try:
        for _ in range(max_steps):
            msg = policy.respond(messages, wrong=wrong)
            messages.append(msg)
            if msg.get("tool_calls"):
                for call in msg["tool_calls"]:
                    result = await session.call(call["function"]["name"], call["function"]["arguments"])
                    messages.append({"role": "tool", "tool_call_id": call["id"], "content": result.text})
                continue
            if interaction is None:
                break
            terminate, text, _score, _extra = await interaction.generate_response(inst, messages)
            if terminate:
                break
            messages.append({"role": "user", "content": text})
    finally:
        if session:
            await session.close()
        if interaction:
            await interaction.finalize_interaction(inst)
    return messages
