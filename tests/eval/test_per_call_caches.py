"""What the loop makes once instead of per call (issue 29) still follows a change: turn limits mutated between
trajectories, the client's params changed between calls, a tool instance made by an overridden create."""
from __future__ import annotations

import asyncio
from typing import Any

from bc_common.builtin_model import BuiltinModel
from bc_common.environment import Environments
from bc_common.rollout import Limits, run_trajectory
from bc_common.tool import Tool
from bc_common.tool_runtime import ToolRuntime
from bc_eval.client import ChatClient, ModelRequest, RetryPolicy

from .conftest import arithmetic_task


def test_limits_changed_between_trajectories_are_resolved_again() -> None:
    env = Environments().get("bootcamp/arithmetic")
    task = arithmetic_task("12 × 7 + 5 - 3", interaction=False)
    limits = Limits(max_assistant_turns=1)

    async def status() -> str:
        row = await run_trajectory(task, 0, BuiltinModel("builtin:reference"), env, model_name="builtin:reference",
                                   limits=limits)
        return row["status"]

    assert asyncio.run(status()) == "max_turns"
    limits.max_assistant_turns = 20
    assert asyncio.run(status()) == "completed"
    limits.max_assistant_turns = 1
    assert asyncio.run(status()) == "max_turns"


def test_client_params_changed_between_calls_reach_the_request(scripted) -> None:
    server, url = scripted(default=[{"content": "ok"}])
    client = ChatClient(url, "m", params={"temperature": 0.5}, retry=RetryPolicy(max_retries=0))
    tools = [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]

    async def calls() -> None:
        try:
            await client.complete(ModelRequest([{"role": "user", "content": "a"}], tools))
            client.params["temperature"] = 0.9
            await client.complete(ModelRequest([{"role": "user", "content": "b"}], tools))
            await client.complete(ModelRequest([{"role": "user", "content": "c"}], []))
            await client.complete(ModelRequest([{"role": "user", "content": "d"}], [],
                                               params={"response_format": {"type": "json_object"}}))
        finally:
            await client.aclose()

    asyncio.run(calls())
    sent = [r["body"] for r in server.requests]
    assert [r.get("temperature") for r in sent] == [0.5, 0.9, 0.9, 0.9]
    assert [r.get("tool_choice") for r in sent] == ["auto", "auto", None, None]
    assert "response_format" not in sent[2] and sent[3]["response_format"] == {"type": "json_object"}


class SlowCreate(Tool):
    """A tool whose create suspends (as a remote one does): it keeps the shielded path."""

    tool_schema = {"type": "function", "function": {"name": "slow", "parameters": {"type": "object"}}}
    created: list[str] = []
    released: list[str] = []

    async def create(self, instance_id: str | None = None, **kwargs: Any) -> str:
        await asyncio.sleep(0.05)
        self.created.append(instance_id)
        return await super().create(instance_id, **kwargs)

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[str, float, dict]:
        return "done", 0.0, {}

    async def release(self, instance_id: str, **kwargs: Any) -> None:
        self.released.append(instance_id)
        await super().release(instance_id)


def test_a_create_that_suspends_is_still_released_when_its_caller_is_cancelled() -> None:
    runtime = ToolRuntime({"slow": SlowCreate()})

    async def main() -> None:
        session = runtime.session()
        call = asyncio.ensure_future(session.call("slow", "{}"))
        await asyncio.sleep(0.01)
        call.cancel()
        await asyncio.gather(call, return_exceptions=True)
        await session.close()

    asyncio.run(main())
    assert SlowCreate.created and SlowCreate.released == SlowCreate.created
