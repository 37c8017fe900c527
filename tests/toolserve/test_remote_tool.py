"""`RemoteTool` is a drop-in Tool: the same tool runtime gives the same results remote as local."""
from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest

from bc_common.errors import ToolError
from bc_common.remote_tool import RemoteTool
from bc_common.tool_runtime import ToolRuntime
from tests.toolserve.conftest import TOKEN, Cluster, wait_for


def remote_config(cluster: Cluster, tmp_path, direct: bool = True) -> str:
    import yaml

    local = yaml.safe_load(Path(cluster.tools).read_text())
    for entry in local["tools"]:
        entry["class_name"] = "bc_common.remote_tool.RemoteTool"
        entry["config"] = {"type": "native", "server_url": cluster.url, "timeout_per_query": 60, "direct": direct}
    path = tmp_path / f"remote-{direct}.yaml"
    path.write_text(yaml.safe_dump(local))
    return str(path)


async def trajectory(runtime: ToolRuntime) -> tuple[list, dict]:
    session = runtime.session(create_kwargs={"count": {"identity": {"target": 6}}})
    results = [await session.call("count", {"step": s}) for s in (1, 2, 3)]
    results.append(await session.call("count", '{"step": "x"}'))  # schema violation, caught locally
    results.append(await session.call("count", {"step": -1}))  # the tool's own ToolError
    rewards = await session.close()
    return [(r.text, r.reward, r.error and r.error["type"]) for r in results], rewards


@pytest.mark.parametrize("direct", [True, False])
def test_remote_equals_local(shared_cluster, tmp_path, monkeypatch, direct):
    monkeypatch.setenv("BC_TOOLSERVE_TOKEN", TOKEN)
    local = asyncio.run(trajectory(ToolRuntime.from_config(shared_cluster.tools)))
    remote = asyncio.run(trajectory(ToolRuntime.from_config(remote_config(shared_cluster, tmp_path, direct))))
    assert local[1] == remote[1] == {"count": 1.0}
    assert [r[:2] for r in local[0][:3]] == [r[:2] for r in remote[0][:3]] == [("1", 0.0), ("3", 0.0), ("6", 0.0)]
    assert [r[2] for r in remote[0]] == [r[2] for r in local[0]] == [None, None, None, "invalid_arguments",
                                                                     "negative_step"]
    # released through the master at once, or (direct) reported by the worker's next heartbeat
    wait_for(lambda: shared_cluster.health()["instances"]["total"] == 0, 10, "instances released")


def test_lost_instance_is_a_typed_error_not_tool_text(cluster, monkeypatch):
    monkeypatch.setenv("BC_TOOLSERVE_TOKEN", TOKEN)
    schema = __import__("tests.toolserve.counter_tool", fromlist=["SCHEMA"]).SCHEMA

    async def run():
        tool = RemoteTool({"type": "native", "server_url": cluster.url, "timeout_per_query": 10}, schema)
        instance_id = await tool.create("lost-one", identity={})
        assert await tool.execute(instance_id, {"step": 2}) == ("2", 0.0, {"total": 2})
        owner = next(w["worker_id"] for w in cluster.health()["workers"] if w["instances"])
        cluster.workers[owner].send_signal(signal.SIGKILL)
        cluster.workers[owner].wait()
        with pytest.raises(ToolError) as lost:
            await asyncio.wait_for(tool.execute(instance_id, {"step": 1}), 5)  # direct fails, master says 410
        await tool.release(instance_id)  # idempotent, never raises for a lost instance
        again = await tool.create(None, identity={})  # placed on a live worker
        await tool.release(again)
        return lost.value

    error = asyncio.run(run())
    assert error.kind == "instance_lost"


def test_wrong_token_is_an_auth_error(shared_cluster, monkeypatch):
    monkeypatch.setenv("BC_TOOLSERVE_TOKEN", "not-the-token")
    tool = RemoteTool({"type": "native", "server_url": shared_cluster.url}, {"type": "function",
                                                                          "function": {"name": "count"}})
    with pytest.raises(ToolError) as exc:
        asyncio.run(tool.create("x", identity={}))
    assert exc.value.kind == "forbidden"
