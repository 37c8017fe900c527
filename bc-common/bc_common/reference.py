"""Play a bootcamp's reference policy through its own tools and interaction, in process: no model, no server.

Used by the conformance suite and by `bc-train --check` to get a known-good answer for a task.
"""
from __future__ import annotations

import asyncio
from typing import Any

from .bootcamp import Bootcamp
from .tool_config import load_interaction_config
from .tool_runtime import ToolRuntime


async def play_reference(bootcamp: Bootcamp, identity: Any, prompt: list[dict[str, Any]], *,
                         tools_kwargs: dict[str, Any] | None = None, interaction: bool = True,
                         interaction_identity: Any = None, wrong: bool = False,
                         max_steps: int = 16) -> tuple[list[dict[str, Any]], bool]:
    """(messages, finished): the episode, and whether it ended by itself within `max_steps` policy turns.

    `tools_kwargs` is a task row's `extra_info.tools_kwargs` (the tools offered and their create kwargs); None
    offers every tool of the bootcamp with `{"identity": identity}`. `wrong=True` makes every answer wrong."""
    runtime = ToolRuntime.from_config(bootcamp.tool_config) if bootcamp.tool_config else ToolRuntime({})
    if tools_kwargs is None:
        create = {name: {"identity": identity} for name in runtime.tools}
    else:
        create = {name: dict((kw or {}).get("create_kwargs") or {}) for name, kw in tools_kwargs.items()}
    session = runtime.session(create, list(create))
    env = (load_interaction_config(bootcamp.interaction_config).instantiate()
           if interaction and bootcamp.interaction_config else None)
    policy = bootcamp.policy(identity, tools=session.allowed)
    messages = [dict(m) for m in prompt]
    instance = await env.start_interaction(None, identity=interaction_identity or identity) if env else None
    try:
        for _ in range(max_steps):
            msg = policy.respond(messages, wrong=wrong)
            messages.append(msg)
            if msg.get("tool_calls"):
                for call in msg["tool_calls"]:
                    result = await session.call(call["function"]["name"], call["function"]["arguments"])
                    messages.append({"role": "tool", "tool_call_id": call["id"], "content": result.text})
                continue
            if env is None:
                return messages, True
            terminate, text, _score, _extra = await env.generate_response(instance, messages)
            if terminate:
                return messages, True
            messages.append({"role": "user", "content": text})
        return messages, False
    finally:
        await session.close()
        if env is not None:
            await env.finalize_interaction(instance)


def play_reference_sync(*args: Any, **kwargs: Any) -> tuple[list[dict[str, Any]], bool]:
    """`play_reference` from synchronous code."""
    return asyncio.run(play_reference(*args, **kwargs))
