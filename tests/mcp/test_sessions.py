"""MCP sessions without a transport: task choice, per-session instances, idle reaping (no SDK needed)."""
from __future__ import annotations

import asyncio

from bc_common.tasks import TaskSet
from bc_toolserve.mcp_session import McpSessions, TaskChooser


def test_idle_sessions_release_their_instances_and_busy_ones_stay():
    async def run():
        sessions = McpSessions(TaskChooser(), lambda env: env.tools, idle_ttl=0.05)
        idle, busy = (sessions.start({"bootcamp": "minesweeper", "seed": "1", "index": "0"}) for _ in range(2))
        sessions.add("idle", idle)
        sessions.add("busy", busy)
        for session in (idle, busy):
            result, tool_reward = await session.call("reveal", {"row": 1, "col": 1})
            assert result.ok and tool_reward == 0.0
        reveal = idle.runtime.tools["reveal"]
        held = dict(sessions.state()), len(reveal._instances)
        busy.busy = 1
        await asyncio.sleep(0.1)
        reaped = await sessions.reap()
        late, _ = await idle.call("reveal", {"row": 2, "col": 2})
        return held, reaped, sessions.state(), len(reveal._instances), late

    held, reaped, after, live, late = asyncio.run(run())
    assert held[0]["sessions"] == 2 and held[0]["instances"] == 2 and held[1] == 2
    assert reaped == 1 and after["sessions"] == 1 and after["instances"] == 1 and after["ended"] == 1
    assert live == 1  # the idle session's board is gone from the tool, the busy one's stays
    assert late.error["type"] == "session_closed"


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
