"""`bc-toolserve mcp` over stdio, started and driven by the official SDK's client."""
from __future__ import annotations

import asyncio
import os
import subprocess
import sys

import pytest

pytest.importorskip("mcp", reason="the mcp extra (official MCP SDK) is not installed")
from mcp import Client, StdioServerParameters

from bc_common.tasks import TaskSet
from bootcamps.arithmetic.reward import ArithmeticRewardCalculator
from bootcamps.minesweeper.tools import RevealTool
from tests.mcp.conftest import ROOT, solve_arithmetic

pytestmark = pytest.mark.timeout(120)


def stdio(*args: str) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", "bc_toolserve", "mcp", *args], cwd=str(ROOT),
                                 env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_sdk_client_over_stdio_solves_an_arithmetic_task():
    identity = TaskSet("arithmetic", seed=4, split="test").identity(9)

    async def run():
        async with Client(stdio("--bootcamp", "arithmetic", "--seed", "4", "--index", "9", "--split", "test")) as c:
            names = [t.name for t in (await c.list_tools()).tools]
            return names, await solve_arithmetic(c)

    names, answer = asyncio.run(run())
    assert names == ["calculate"]
    assert ArithmeticRewardCalculator.verify_score(answer, identity) == 1.0


def test_stdio_keeps_the_session_state_and_answers_bad_calls_with_errors():
    async def run():
        async with Client(stdio("--bootcamp", "minesweeper", "--seed", "2", "--index", "1")) as c:
            tools = (await c.list_tools()).tools
            first = await c.call_tool("reveal", {"row": 1, "col": 1})
            again = await c.call_tool("reveal", {"row": 1, "col": 1})
            bad = await c.call_tool("reveal", {"row": "one", "col": 1})
            unknown = await c.call_tool("dig", {})
            return tools, first, again, bad, unknown

    tools, first, again, bad, unknown = asyncio.run(run())
    reveal = next(t for t in tools if t.name == "reveal")
    assert reveal.input_schema == RevealTool.tool_schema["function"]["parameters"]
    assert first.content[0].text.startswith("Revealed (1, 1)") and not first.is_error
    assert again.content[0].text.startswith("(1, 1) was already revealed")  # state survives between calls
    assert bad.is_error and "invalid arguments for reveal" in bad.content[0].text
    assert bad.meta["bootcamp-harness"]["error"] == "invalid_arguments"
    assert unknown.is_error and "unknown tool 'dig'" in unknown.content[0].text


@pytest.mark.parametrize("args, message", [
    (["--bootcamp", "no_such_bootcamp", "--index", "0"], "no_such_bootcamp"),
    (["--bootcamp", "arithmetic"], "missing parameter 'index'"),
    (["--task", "nope"], "no task 'nope'"),
])
def test_stdio_refuses_a_task_it_cannot_serve(args, message):
    proc = subprocess.run([sys.executable, "-m", "bc_toolserve", "mcp", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdin=subprocess.DEVNULL)
    assert proc.returncode == 2 and message in proc.stderr and proc.stdout == ""


def test_stdio_serves_a_task_of_a_file_by_id(tmp_path):
    import orjson

    row = TaskSet("arithmetic", seed=8, params={"min_terms": 4, "max_terms": 4})[2]  # only its file knows it
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_bytes(orjson.dumps(TaskSet("arithmetic", seed=8)[0]) + b"\n" + orjson.dumps(row) + b"\n")

    async def run():
        async with Client(stdio("--tasks", str(tasks), "--task", row["id"])) as c:
            return await c.get_prompt("task"), await solve_arithmetic(c)

    prompt, answer = asyncio.run(run())
    assert prompt.messages[0].content.text == row["prompt"][0]["content"]
    assert ArithmeticRewardCalculator.verify_score(answer, row["reward_model"]["ground_truth"]) == 1.0


def _pipe(lines: list[dict], args: list[str]) -> tuple[subprocess.CompletedProcess, dict]:
    """Write `lines` to `bc-toolserve mcp ARGS` and close its stdin at once; (the process, answers by id)."""
    import orjson

    proc = subprocess.run([sys.executable, "-m", "bc_toolserve", "mcp", *args], cwd=ROOT, capture_output=True,
                          timeout=90, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          input=b"".join(orjson.dumps(line) + b"\n" for line in lines))
    answers = [orjson.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    return proc, {answer.get("id"): answer for answer in answers}


INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "pipe", "version": "0"}}}


def test_stdio_answers_every_request_read_before_stdin_closes():
    """The colleague's sequence: initialize, tools/list, tools/call, then EOF: all three are answered."""
    proc, answers = _pipe([INITIALIZE, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
                           {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                            "params": {"name": "calculate", "arguments": {"expression": "2+3"}}}],
                          ["--bootcamp", "arithmetic", "--seed", "0", "--index", "0"])
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    assert sorted(answers) == [1, 2, 3], proc.stdout
    assert answers[3]["result"]["content"][0]["text"] == "5"
    assert b"Traceback" not in proc.stderr


def test_stdio_answers_pipelined_calls_in_flight_at_eof():
    calls = [{"jsonrpc": "2.0", "id": i, "method": "tools/call",
              "params": {"name": "reveal", "arguments": {"row": 1 + i % 3, "col": 1 + i // 3 % 3}}} for i in range(2, 14)]
    proc, answers = _pipe([INITIALIZE, {"jsonrpc": "2.0", "method": "notifications/initialized"}, *calls],
                          ["--bootcamp", "minesweeper", "--seed", "2", "--index", "1"])
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    assert sorted(answers) == list(range(1, 14)), proc.stdout
    assert all("result" in answers[i] for i in range(2, 14))
    assert b"Traceback" not in proc.stderr
