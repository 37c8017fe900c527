"""An OpenEnv 0.10 environment server for our bootcamps, played through OpenEnv's own client (`MCPToolClient`).

Needs the `openenv` extra, which lives in its own virtual environment (`make test-interop`); skipped elsewhere.
The server is the module's command in a process of its own on loopback; the agent is our reference (and noisy)
policy in the test, seeing only what the server sends."""
from __future__ import annotations

import asyncio
import contextlib
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator

import orjson
import pytest

pytest.importorskip("openenv.core", reason="the openenv extra is not installed (make test-interop)")

from openenv.core.mcp_client import MCPToolClient  # noqa: E402

from bc_common.builtin_model import BuiltinModel  # noqa: E402
from bc_common.environment import Environments  # noqa: E402
from bc_common.interop.openenv_env import BootcampAction  # noqa: E402
from bc_common.model import ModelRequest  # noqa: E402
from bc_common.records import task_id  # noqa: E402
from bc_common.tasks import TaskSet  # noqa: E402

from .conftest import MODELS, read_jsonl  # noqa: E402

pytestmark = pytest.mark.slow
ENVS = Environments()


@contextlib.contextmanager
def openenv_server(*args: str) -> Iterator[str]:
    """`python -m bc_common.interop.openenv_env` on a free loopback port; its URL once /health answers."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen([sys.executable, "-m", "bc_common.interop.openenv_env", "--port", str(port), *args],
                               stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/health", timeout=2):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the OpenEnv server did not come up: {process.stderr.read()[-2000:]}") from None
                time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    """One server for the module (it starts in seconds, its sessions are independent); minesweeper by default."""
    with openenv_server("--bootcamp", "minesweeper") as url:
        yield url


async def play(url: str, row: dict, model_name: str, *, mcp_calls: bool = False) -> tuple[float, dict]:
    """One episode through MCPToolClient: reset with the row, then the policy's messages as actions until done.
    `mcp_calls`: a message's tool calls go one by one through `call_tool` (MCP) instead of in the message."""
    env_here = ENVS.get(row["data_source"])
    model = BuiltinModel(model_name)
    async with MCPToolClient(base_url=url) as env:
        result = await env.reset(task=row)
        messages, schemas = list(result.observation.messages), result.observation.offered_tools
        assistant = 0
        while not result.done:
            reply = await model.complete(ModelRequest(messages, schemas, row, task_id(row), 0, assistant,
                                                      env_here.policy, env_here.baselines))
            assistant += 1
            message = reply.message
            calls = message.get("tool_calls") or []
            if mcp_calls and calls:
                messages.append(message)
                for call in calls:
                    arguments = orjson.loads(call["function"]["arguments"])
                    text = await env.call_tool(call["function"]["name"], **arguments)
                    messages.append({"role": "tool", "tool_call_id": call["id"], "content": text})
                continue
            result = await env.step(BootcampAction(content=message.get("content") or "", tool_calls=calls))
            messages += [message, *result.observation.messages]
        return float(result.reward), result.observation.metadata


@pytest.mark.parametrize("model", MODELS)
def test_openenv_episodes_score_what_bc_eval_scores(server_url, tasks_file, bc_eval_scores, model):
    """The same tasks played by the same policy through OpenEnv's client get bc-eval's score task by task."""
    rows = read_jsonl(tasks_file)

    async def all_tasks() -> dict[str, float]:
        played = await asyncio.gather(*(play(server_url, row, model) for row in rows))  # concurrent sessions
        return {row["id"]: score for row, (score, _) in zip(rows, played, strict=True)}

    assert asyncio.run(all_tasks()) == bc_eval_scores[model]


def test_tools_are_listed_and_called_over_mcp(server_url, tasks_file, bc_eval_scores):
    """list_tools gives the task's tools with their schemas; call_tool runs one in the session's trajectory, so
    a knapsack episode whose tool calls all go through MCP still scores as under bc-eval."""
    rows = [r for r in read_jsonl(tasks_file) if r["data_source"] == "bootcamp/knapsack"]
    schemas = ENVS.get("bootcamp/knapsack").tools.schemas()

    async def check() -> None:
        async with MCPToolClient(base_url=server_url) as env:
            await env.reset(task=rows[0])
            tools = await env.list_tools()
            assert [(t.name, t.input_schema) for t in tools] == \
                   [(s["function"]["name"], s["function"]["parameters"]) for s in schemas]
            assert (await env.call_tool("evaluate_selection", items=[1])).startswith("Total weight:")
            refused = await env.call_tool("evaluate_selection", items="one")  # the model reads why
            assert refused.startswith("Error: invalid arguments for evaluate_selection")
            assert (await env.state()).step_count == 2
        for row in rows:
            score, ending = await play(server_url, row, "builtin:reference", mcp_calls=True)
            assert (score, ending["status"]) == (bc_eval_scores["builtin:reference"][row["id"]], "completed")

    asyncio.run(check())


def test_reset_by_bootcamp_and_index_is_bc_gens_row(server_url):
    async def first_prompt() -> tuple[list, list]:
        async with MCPToolClient(base_url=server_url) as env:
            default = (await env.reset(index=2)).observation.messages
            named = (await env.reset(bootcamp="knapsack", index=1, seed=4)).observation.messages
            return default, named

    default, named = asyncio.run(first_prompt())
    assert default == TaskSet("minesweeper")[2]["prompt"] and named == TaskSet("knapsack", seed=4)[1]["prompt"]


def test_a_step_before_reset_or_after_the_end_is_an_error_not_a_crash(server_url):
    row = TaskSet("arithmetic", seed=2)[0]

    async def misuse() -> list[str]:
        errors = []
        async with MCPToolClient(base_url=server_url) as env:
            for attempt in ("before reset", "after the end"):
                try:
                    await env.step(BootcampAction(content="42"))
                except Exception as exc:  # the server answers with an error message, the session lives on
                    errors.append(str(exc))
                if attempt == "before reset":
                    await env.reset(task=row)
                    result = await env.step(BootcampAction(content="no answer here"))
                    while not result.done:
                        result = await env.step(BootcampAction(content="still none"))
            assert (await env.reset(task=row)).observation.messages == row["prompt"]
        return errors

    errors = asyncio.run(misuse())
    assert "call reset() before step()" in errors[0] and "this episode has ended" in errors[1]
