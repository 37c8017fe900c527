"""MCP sessions without a transport: task choice, per-session instances, idle reaping (no SDK needed)."""
from __future__ import annotations

import asyncio

import pytest

from bc_common.tasks import TaskSet
from bc_toolserve.mcp_session import McpSessions, SessionEnded, SessionLimit, TaskChooser


def test_idle_sessions_release_their_instances_and_busy_ones_stay():
    async def run():
        sessions = McpSessions(TaskChooser(), lambda env: env.tools, idle_ttl=0.05)
        idle, busy = (sessions.start({"bootcamp": "minesweeper", "seed": "1", "index": "0"}) for _ in range(2))
        for session_id, session in (("idle", idle), ("busy", busy)):
            sessions.admit("127.0.0.1")
            sessions.add(session_id, session)
        for session in (idle, busy):
            result, tool_reward = await session.call("reveal", {"row": 1, "col": 1})
            assert result.ok and tool_reward == 0.0
        reveal = idle.runtime.tools["reveal"]
        held = dict(sessions.state()), len(reveal._instances)
        busy.busy = 1
        await asyncio.sleep(0.1)
        reaped = await sessions.reap()
        with pytest.raises(SessionEnded):
            await idle.call("reveal", {"row": 2, "col": 2})
        return held, reaped, sessions.state(), len(reveal._instances)

    held, reaped, after, live = asyncio.run(run())
    assert held[0]["sessions"] == 2 and held[0]["instances"] == 2 and held[1] == 2
    assert reaped == 1 and after["sessions"] == 1 and after["instances"] == 1 and after["ended"] == 1
    assert live == 1  # the idle session's board is gone from the tool, the busy one's stays


def test_sessions_of_one_task_share_nothing():
    async def run():
        sessions = McpSessions(TaskChooser(), lambda env: env.tools)
        a, b = (sessions.start({"bootcamp": "minesweeper", "seed": "4", "index": "2"}) for _ in range(2))
        first_a, _ = await a.call("reveal", {"row": 1, "col": 1})
        first_b, _ = await b.call("reveal", {"row": 1, "col": 1})
        return a, b, first_a, first_b

    a, b, first_a, first_b = asyncio.run(run())
    assert a.task == b.task == TaskSet("minesweeper", seed=4)[2]
    assert first_a.text == first_b.text and first_b.text.startswith("Revealed (1, 1)")
    assert a.tools.instances["reveal"] != b.tools.instances["reveal"]


def test_caps_refuse_new_sessions_per_client_and_per_server_and_give_room_back():
    async def run():
        sessions = McpSessions(TaskChooser(), lambda env: env.tools, max_sessions=3, max_per_client=2)
        refusals = []

        def refused(client: str) -> None:
            with pytest.raises(SessionLimit) as caught:
                sessions.admit(client)
            refusals.append((caught.value.status, str(caught.value)))

        def opened(session_id: str, client: str) -> None:
            sessions.admit(client)
            session = sessions.start({"bootcamp": "minesweeper", "seed": "1", "index": "0"})
            session.client = client
            sessions.add(session_id, session)

        opened("s0", "10.0.0.1")
        opened("s1", "10.0.0.1")
        refused("10.0.0.1")  # its own cap (2), with room on the server
        opened("s2", "10.0.0.2")
        refused("10.0.0.3")  # the server's cap (3)
        full = sessions.state()
        await sessions.end("s0")
        sessions.admit("10.0.0.3")  # room again: an opening that fails gives it back
        sessions.abandon("10.0.0.3")
        sessions.admit("10.0.0.1")
        return refusals, full, sessions.state()

    refusals, full, after = asyncio.run(run())
    assert refusals[0][0] == 429 and "--mcp-max-sessions-per-client" in refusals[0][1]
    assert refusals[1][0] == 503 and "--mcp-max-sessions" in refusals[1][1]
    assert full["sessions"] == 3 and full["clients"] == 2 and full["busiest_client_sessions"] == 2
    assert full["refused"] == {"server_full": 1, "client_full": 1}
    assert after["sessions"] == 2 and after["busiest_client_sessions"] == 2 and after["clients"] == 2


def test_ending_a_session_ends_its_calls_in_flight_at_once():
    async def run():
        sessions = McpSessions(TaskChooser(), lambda env: env.tools)
        session = sessions.start({"bootcamp": "minesweeper", "seed": "1", "index": "0"})
        sessions.admit("127.0.0.1")
        sessions.add("s", session)
        await session.call("reveal", {"row": 1, "col": 1})
        reveal = session.runtime.tools["reveal"]
        slow = asyncio.Event()
        original = reveal.execute

        async def stuck(instance_id, parameters, **kwargs):  # a call that would never finish on its own
            await slow.wait()
            return await original(instance_id, parameters, **kwargs)

        reveal.execute = stuck
        calls = [asyncio.ensure_future(session.call("reveal", {"row": 2, "col": 2})) for _ in range(5)]
        await asyncio.sleep(0.05)
        started = asyncio.get_running_loop().time()
        await sessions.end("s")
        outcomes = await asyncio.gather(*calls, return_exceptions=True)
        return outcomes, asyncio.get_running_loop().time() - started, len(reveal._instances)

    outcomes, took, live = asyncio.run(run())
    assert all(isinstance(o, SessionEnded) for o in outcomes) and took < 1.0 and live == 0
