"""MCP over Streamable HTTP at the master's /mcp, driven by the official SDK's client."""
from __future__ import annotations

import asyncio
import urllib.error
import urllib.request

import orjson
import pytest

pytest.importorskip("mcp", reason="the mcp extra (official MCP SDK) is not installed")

from bc_common.tasks import TaskSet
from bootcamps.arithmetic.reward import ArithmeticRewardCalculator
from bootcamps.arithmetic.tools import CalculatorTool
from bootcamps.minesweeper.board import Board
from tests.mcp.conftest import TOKEN, Server, flat, mcp_client, solve_arithmetic
from tests.toolserve.conftest import call, wait_for

pytestmark = pytest.mark.timeout(120)


def test_sdk_client_lists_tools_and_solves_an_arithmetic_task(server):
    identity = TaskSet("arithmetic", seed=7).identity(3)

    async def run():
        async with mcp_client(server.mcp_url(bootcamp="arithmetic", seed=7, index=3)) as client:
            tools = (await client.list_tools()).tools
            prompts = (await client.list_prompts()).prompts
            prompt = await client.get_prompt("task")
            seen = orjson.dumps([t.model_dump(mode="json") for t in tools] + [p.model_dump(mode="json") for p in
                                                                              prompts] + [prompt.model_dump(mode="json")])
            answer = await solve_arithmetic(client)
            return tools, prompt, seen, answer

    tools, prompt, seen, answer = asyncio.run(run())
    schema = CalculatorTool.tool_schema["function"]
    assert [(t.name, t.description, t.input_schema) for t in tools] == \
        [(schema["name"], schema["description"], schema["parameters"])]
    assert prompt.messages[0].content.text == TaskSet("arithmetic", seed=7)[3]["prompt"][0]["content"]
    assert identity["expected_result"].encode() not in seen  # the answer never leaves the server
    assert ArithmeticRewardCalculator.verify_score(answer, identity) == 1.0
    assert ArithmeticRewardCalculator.verify_score(answer.replace('"result": ', '"result": 1'), identity) < 1.0


def test_concurrent_minesweeper_sessions_keep_their_own_boards_and_release_on_close(server):
    board = Board.of(TaskSet("minesweeper", seed=3).identity(0))
    safe = next(cell for cell in board.cells() if cell not in board.mines)
    row, col = safe
    url = server.mcp_url(bootcamp="minesweeper", seed=3, index=0)
    before = server.health()

    async def run():
        async with mcp_client(url) as a, mcp_client(url) as b:
            first_a = await a.call_tool("reveal", {"row": row, "col": col})
            first_b, flags_b = await asyncio.gather(b.call_tool("reveal", {"row": row, "col": col}),
                                                    b.call_tool("flag", {"row": 9, "col": 9}))
            again_a = await a.call_tool("reveal", {"row": row, "col": col})
            flags_a = await a.call_tool("flag", {"row": 8, "col": 8})
            during = server.health()
        return first_a, first_b, again_a, flags_a, flags_b, during

    first_a, first_b, again_a, flags_a, flags_b, during = asyncio.run(run())
    assert first_a.content[0].text.startswith(f"Revealed ({row}, {col})")
    assert first_b.content[0].text.startswith(f"Revealed ({row}, {col})")  # b's board is not a's
    assert again_a.content[0].text.startswith(f"({row}, {col}) was already revealed")
    assert "(9, 9)" not in flags_a.content[0].text and "(8, 8)" in flags_a.content[0].text
    assert during["mcp"]["sessions"] == before["mcp"]["sessions"] + 2
    assert during["mcp"]["instances"] == before["mcp"]["instances"] + 4  # reveal and flag, in each session
    assert during["instances"]["total"] == before["instances"]["total"] + 4  # held by the worker
    after = wait_for(lambda: (h := server.health()) and h["mcp"]["sessions"] == before["mcp"]["sessions"] and h,
                     what="both sessions ended")
    assert after["mcp"]["instances"] == before["mcp"]["instances"]
    assert after["mcp"]["ended"] == before["mcp"]["ended"] + 2
    assert wait_for(lambda: server.health()["instances"]["total"] == before["instances"]["total"],
                    what="the worker's instances released")


@pytest.mark.parametrize("token", [None, "wrong-token-0000"])
def test_a_session_without_the_token_is_refused(server, token):
    before = server.health()["mcp"]

    async def run():
        async with mcp_client(server.mcp_url(bootcamp="arithmetic", seed=0, index=0), token=token) as client:
            await client.list_tools()

    with pytest.raises(Exception) as caught:  # the SDK reports a refused initialize as an MCPError
        asyncio.run(run())
    assert "MCPError" in flat(caught.value)
    assert ("missing (or blank) Authorization" if token is None else "wrong token") in flat(caught.value)
    status, body = call(server.mcp_url(bootcamp="arithmetic", seed=0, index=0),
                        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}, token=token)
    assert status == (401 if token is None else 403)
    assert body["error"]["type"] == ("unauthorized" if token is None else "forbidden")
    assert server.health()["mcp"] == before  # no session was opened, nothing created


@pytest.mark.parametrize("query, message", [
    ({"bootcamp": "no_such_bootcamp", "index": 0}, "no_such_bootcamp"),
    ({"bootcamp": "arithmetic"}, "missing parameter 'index'"),
    ({"bootcamp": "arithmetic", "index": "x"}, "'index' must be an integer"),
    ({"bootcamp": "arithmetic", "index": 0, "colour": "red"}, "unknown parameter 'colour'"),
    ({"task": "arithmetic-0000000000000000"}, "no task 'arithmetic-0000000000000000'"),
    ({"task": "arithmetic-0000000000000000", "bootcamp": "arithmetic", "index": 0}, "is not task 0"),
    ({}, "choose the session's task"),
    ({"bootcamp": "noop", "index": 0}, "offers no tools"),
])
def test_a_session_for_a_task_that_cannot_be_served_is_refused_with_the_reason(server, query, message):
    url = f"{server.url}/mcp?" + "&".join(f"{k}={v}" for k, v in query.items())
    status, body = call(url, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}, token=TOKEN)
    assert status == 400 and message in body["error"]["message"]

    async def run():
        async with mcp_client(url) as client:
            await client.list_tools()

    with pytest.raises(Exception) as caught:
        asyncio.run(run())
    assert message in flat(caught.value)


def test_a_session_less_2026_client_is_refused_at_the_tool_call(server):
    from mcp import Client

    async def run():
        import httpx2
        from mcp.client.streamable_http import streamable_http_client

        async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}) as http, Client(
                streamable_http_client(server.mcp_url(bootcamp="arithmetic", seed=0, index=0), http_client=http),
                mode="2026-07-28") as client:
            await client.call_tool("calculate", {"expression": "1+1"})

    with pytest.raises(Exception) as caught:
        asyncio.run(run())
    assert "MCPError: no MCP session: connect with the initialize handshake" in flat(caught.value)


@pytest.mark.slow
def test_sessions_idle_past_the_ttl_end_and_tasks_chosen_by_id(tmp_path):
    tasks = tmp_path / "tasks.jsonl"
    row = TaskSet("arithmetic", seed=11, params={"min_terms": 2, "max_terms": 2})[5]  # not reproducible by coordinates
    tasks.write_bytes(orjson.dumps(row) + b"\n")
    srv = Server(tmp_path, tools="arithmetic", master_args=("--tasks", str(tasks), "--mcp-idle-ttl", "2"))
    try:
        async def run():
            async with mcp_client(srv.mcp_url(task=row["id"])) as client:
                prompt = await client.get_prompt("task")
                await client.call_tool("calculate", {"expression": "2*3"})
                held = srv.health()
                await asyncio.sleep(0.1)
                idle = await asyncio.to_thread(wait_for, lambda: srv.health()["mcp"]["sessions"] == 0, 20.0,
                                               "the idle session ended")
                try:
                    await client.call_tool("calculate", {"expression": "2*3"})
                    late = None
                except Exception as exc:  # the session is gone (404): no state carried into a new one
                    late = exc
                return prompt, held, idle, late

        prompt, held, idle, late = asyncio.run(run())
        assert prompt.messages[0].content.text == row["prompt"][0]["content"]
        assert held["mcp"]["sessions"] == 1 and held["mcp"]["instances"] == 1 and held["instances"]["total"] == 1
        health = srv.health()
        assert health["mcp"]["instances"] == 0 and health["mcp"]["ended"] == 1
        assert wait_for(lambda: srv.health()["instances"]["total"] == 0, what="worker instance released")
        assert late is not None
    finally:
        srv.stop()


def test_unified_serves_mcp_with_tasks_chosen_by_id(tmp_path):
    import os
    import signal
    import subprocess
    import sys

    from tests.mcp.conftest import ROOT
    from tests.toolserve.conftest import free_port

    tasks = tmp_path / "tasks.jsonl"
    row = TaskSet("arithmetic", seed=2, split="test")[4]
    tasks.write_bytes(orjson.dumps(row) + b"\n")
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BC_TOOLSERVE_TOKEN": TOKEN}
    with open(tmp_path / "unified.log", "wb") as log:
        proc = subprocess.Popen([sys.executable, "-m", "bc_toolserve", "unified", "--tools", "arithmetic", "-n", "1",
                                 "--port", str(port), "--tasks", str(tasks), "--heartbeat-interval", "0.25"],
                                cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: (call(f"{url}/health", timeout=1)[1] or {}).get("workers_alive") == 1, 60.0,
                 "unified ready")

        async def run():
            async with mcp_client(f"{url}/mcp?task={row['id']}") as client:
                return await solve_arithmetic(client)

        answer = asyncio.run(run())
        assert ArithmeticRewardCalculator.verify_score(answer, row["reward_model"]["ground_truth"]) == 1.0
        assert wait_for(lambda: call(f"{url}/health")[1]["mcp"]["ended"] == 1, what="session ended")
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)


def test_an_oversized_mcp_request_is_refused(server):
    before = server.health()["mcp"]
    big = b'{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"pad": "' + b"x" * (2 << 20) + b'"}}'
    status, _ = call(server.mcp_url(bootcamp="arithmetic", seed=0, index=0), raw=big, token=TOKEN)
    assert status == 413
    assert server.health()["mcp"] == before


def test_a_session_whose_tools_no_live_worker_serves_is_refused_503(server):
    status, body = call(server.mcp_url(bootcamp="sudoku", seed=0, index=0),  # served by no worker here
                        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}, token=TOKEN)
    assert status == 503 and "no live worker serves" in body["error"]["message"]


def test_any_task_index_is_served_at_once(server):
    async def run():
        async with mcp_client(server.mcp_url(bootcamp="arithmetic", seed=1, index=10**30)) as client:
            return await client.get_prompt("task")

    prompt = asyncio.run(run())
    assert prompt.messages[0].content.text == TaskSet("arithmetic", seed=1)[10**30]["prompt"][0]["content"]


def test_a_tokenless_server_refuses_foreign_host_and_origin_headers(tmp_path):
    """Without a token the master listens on loopback only; a page whose own name resolves to 127.0.0.1 (DNS
    rebinding) still must not drive /mcp: Host and Origin must be loopback names."""
    srv = Server(tmp_path, tools="arithmetic", token=None)
    try:
        url = srv.mcp_url(bootcamp="arithmetic", seed=7, index=3)
        before = srv.health()["mcp"]
        opening = orjson.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}})

        def post(**headers):
            req = urllib.request.Request(url, data=opening, method="POST", headers={
                "Content-Type": "application/json", "Accept": "application/json, text/event-stream", **headers})
            try:
                with urllib.request.urlopen(req, timeout=10) as resp:
                    return resp.status
            except urllib.error.HTTPError as exc:
                return exc.code

        assert post(Host=f"rebind.example:{srv.port}") == 421
        assert post(Origin="http://rebind.example") == 403
        assert srv.health()["mcp"] == before  # nothing opened
        assert post(Origin=f"http://localhost:{srv.port}") == 200

        async def run():
            async with mcp_client(url, token=None) as client:
                return await solve_arithmetic(client)

        identity = TaskSet("arithmetic", seed=7).identity(3)
        assert ArithmeticRewardCalculator.verify_score(asyncio.run(run()), identity) == 1.0
    finally:
        srv.stop()
