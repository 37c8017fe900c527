"""Shared helpers for the puzzle bootcamps' tests: identities drawn the way bc-gen draws them, and tool calls."""
from __future__ import annotations

import asyncio
import functools
import time
from typing import Any

import orjson

from bc_common.catalog import get_bootcamp
from bc_common.seeding import RecordRandom
from bc_common.tool_runtime import ToolResult, ToolRuntime


def identities(generator_cls: type, n: int, seed: bytes = b"t", **params: Any) -> list[dict[str, Any]]:
    """`n` identities from a generator, each from its own keyed stream (as bc-gen seeds every record)."""
    gen = generator_cls(**params)
    gen.rng = RecordRandom()
    out = []
    for i in range(n):
        gen.rng.seed_record(seed + b"\x1f%d" % i)
        out.append(gen.case_generator())
    return out


def call_tool(tool_cls: type, identity: dict[str, Any], arguments: dict[str, Any]) -> tuple[str, float, dict]:
    """One call of a tool on a fresh instance for `identity` (create, execute, release)."""
    tool = tool_cls()

    async def run() -> tuple[str, float, dict]:
        instance = await tool.create(identity=identity)
        try:
            return await tool.execute(instance, arguments)
        finally:
            await tool.release(instance)

    return asyncio.run(run())


def play(policy_cls: type, tool_cls: type | None, identity: dict[str, Any], *, wrong: bool = False) -> str:
    """The reference policy's final text, its tool calls answered by the real tool (at most 4 turns)."""
    tools = [tool_cls.tool_schema["function"]["name"]] if tool_cls else []
    policy = policy_cls(identity, tools=tools)
    messages: list[dict[str, Any]] = [{"role": "user", "content": "solve"}]
    for _ in range(4):
        msg = policy.respond(messages, wrong=wrong)
        messages.append(msg)
        if not msg.get("tool_calls"):
            return msg["content"]
        for call in msg["tool_calls"]:
            text, reward, _ = call_tool(tool_cls, identity, orjson.loads(call["function"]["arguments"]))
            assert reward == 0.0  # calling a tool earns nothing
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": text})
    raise AssertionError("the policy did not answer within 4 turns")


def runtime_call(bootcamp: str, identity: dict[str, Any], name: str, arguments: Any) -> ToolResult:
    """One call through the harness's tool runtime (JSON parsing and schema validation first), as bc-eval makes it."""
    runtime = ToolRuntime.from_specs(get_bootcamp(bootcamp).tool_specs())

    async def run() -> ToolResult:
        session = runtime.session({n: {"identity": identity} for n in runtime.tools}, None)
        try:
            return await session.call(name, arguments)
        finally:
            await session.close()

    return asyncio.run(run())


HOSTILE = (
    "a" * (1 << 20),
    "<answer>" * 50_000,
    "</answer>" * 50_000,
    "<answer>" + "(" * 10_000 + ")" * 10_000 + "</answer>",
    "<answer>" + "[" * 10_000 + "]" * 10_000 + "</answer>",
    "<answer>1</answer>" * 20_000,
    "<answer>١٢٣٤٥٦٧٨٩٠ ０１２３ ߁߂߃</answer>",
    "<answer>1e999999999</answer>",
    "<answer>" + "9" * 100_000 + "</answer>",
    "\x00\ud7ff\uffff" * 1000,
)


def assert_fast_zero(reward_cls: type, identity: dict[str, Any], texts=HOSTILE, budget: float = 0.05) -> None:
    """Every hostile text scores 0 within `budget` seconds (best of three: a busy machine makes outliers)."""
    for text in texts:
        best = float("inf")
        for _ in range(3):
            started = time.perf_counter()
            score = reward_cls.verify_score(text, identity)
            best = min(best, time.perf_counter() - started)
        assert score == 0.0, text[:60]
        assert best < budget, (text[:60], best)


def policy_scores(bootcamp: str, model: str, *, group: str, n: int = 30, seed: int = 5) -> list[float]:
    """The scores of `model` (`builtin:reference`, `builtin:noisy`, `builtin:baseline/NAME`) on the first `n`
    tasks of one group, each played through bc-eval's rollout loop."""
    from bc_common.builtin_model import BuiltinModel
    from bc_common.environment import Environments
    from bc_common.rollout import run_trajectory

    rows = _rows(bootcamp, group, n, seed)
    env = Environments().get(rows[0]["data_source"])

    async def run() -> list[float]:
        out = []
        for row in rows:
            trajectory = await run_trajectory(row, 0, BuiltinModel(model), env, model_name=model)
            out.append(float(trajectory["score"] or 0.0))
        return out

    return asyncio.run(run())


@functools.cache
def _rows(bootcamp: str, group: str, n: int, seed: int) -> list[dict[str, Any]]:
    """The first `n` task rows of a group (kept: several policies play the same tasks)."""
    from bc_common.tasks import TaskSet

    tasks = TaskSet(bootcamp, seed=seed, split="baseline-test", groups=[group])
    return [tasks[i] for i in range(n)]
