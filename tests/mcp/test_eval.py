"""`bc-eval --tool-transport mcp`: the same trajectories as in process, the tools run in MCP sessions."""
from __future__ import annotations

import os
import subprocess
import sys

import orjson
import pytest

pytest.importorskip("mcp", reason="the mcp extra (official MCP SDK) is not installed")

from tests.mcp.conftest import ROOT, TOKEN
from tests.toolserve.conftest import wait_for

pytestmark = pytest.mark.timeout(300)
BIN = os.path.dirname(sys.executable)


def run(*args: str, stdin: bytes | None = None, token: str | None = TOKEN) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("BC_TOOLSERVE_TOKEN", None)
    if token:
        env["BC_TOOLSERVE_TOKEN"] = token
    return subprocess.run([os.path.join(BIN, args[0]), *args[1:]], input=stdin, capture_output=True, env=env,
                          cwd=ROOT, timeout=240)


def rows(data: bytes) -> dict[str, dict]:
    return {r["task_id"]: r for r in map(orjson.loads, data.splitlines())}


def same_trajectories(local: dict[str, dict], remote: dict[str, dict]) -> None:
    assert local.keys() == remote.keys()
    for tid, row in local.items():
        other = remote[tid]
        assert (other["score"], other["status"], other["reward"], other["messages"], other["tools"]) == \
            (row["score"], row["status"], row["reward"], row["messages"], row["tools"]), tid
        strip = [{k: v for k, v in t.items() if k not in ("latency_s",)} for t in row["turns"]]
        assert [{k: v for k, v in t.items() if k not in ("latency_s",)} for t in other["turns"]] == strip


@pytest.fixture(scope="module")
def tasks(tmp_path_factory):
    path = tmp_path_factory.mktemp("tasks") / "tasks.jsonl"
    gen = run("bc-gen", "arithmetic", "-n", "100", "--seed", "21")
    assert gen.returncode == 0, gen.stderr
    path.write_bytes(gen.stdout)
    return path


@pytest.mark.slow
def test_reference_model_over_mcp_scores_as_in_process_on_100_arithmetic_tasks(server, tasks):
    local = run("bc-eval", str(tasks), "--model", "builtin:reference", "-q")
    remote = run("bc-eval", str(tasks), "--model", "builtin:reference", "-q", "--tool-transport", "mcp",
                 "--tool-server", f"{server.url}/mcp")
    assert local.returncode == 0 and remote.returncode == 0, remote.stderr.decode()
    local_rows, remote_rows = rows(local.stdout), rows(remote.stdout)
    assert len(remote_rows) == 100
    assert sum(r["score"] for r in remote_rows.values()) == sum(r["score"] for r in local_rows.values()) == 100
    assert sum(t["type"] == "tool" for r in remote_rows.values() for t in r["turns"]) >= 100  # the tools ran
    same_trajectories(local_rows, remote_rows)
    health = wait_for(lambda: (h := server.health())["mcp"]["sessions"] == 0 and h, what="sessions ended")
    assert health["mcp"]["instances"] == 0 and health["mcp"]["ended"] >= 100
    assert wait_for(lambda: server.health()["instances"]["total"] == 0, what="worker instances released")


def test_stateful_tools_over_mcp_give_the_in_process_trajectories(server):
    gen = run("bc-gen", "minesweeper", "-n", "4", "--seed", "5", "--group", "easy")  # the session names the group
    assert gen.returncode == 0, gen.stderr.decode()
    local = run("bc-eval", "-", "--model", "builtin:noisy", "--param", "error_rate=0.2", "-q", stdin=gen.stdout)
    remote = run("bc-eval", "-", "--model", "builtin:noisy", "--param", "error_rate=0.2", "-q", "--tool-transport",
                 "mcp", "--tool-server", f"{server.url}/mcp", stdin=gen.stdout)
    assert local.returncode == 0 and remote.returncode == 0, remote.stderr.decode()
    assert any(t["type"] == "tool" for r in rows(remote.stdout).values() for t in r["turns"])
    same_trajectories(rows(local.stdout), rows(remote.stdout))


def test_a_task_the_server_cannot_reproduce_is_an_error_not_another_task(server, tasks):
    row = orjson.loads(tasks.read_bytes().splitlines()[0])
    row["prompt"][0]["content"] = "What is 1 + 1? " + row["prompt"][0]["content"]  # a row the server cannot know
    out = run("bc-eval", "-", "--model", "builtin:reference", "-q", "--tool-transport", "mcp",
              "--tool-server", f"{server.url}/mcp", stdin=orjson.dumps(row))
    assert out.returncode == 0, out.stderr.decode()
    tool_turn = next(t for t in orjson.loads(out.stdout)["turns"] if t["type"] == "tool")
    assert tool_turn["error"]["type"] == "unavailable" and "serve the task file with --tasks" in \
        tool_turn["error"]["message"]


@pytest.mark.parametrize("token, kind", [(None, "unauthorized"), ("wrong-token-0000", "forbidden")])
def test_a_run_without_the_token_stops_before_any_trajectory(server, tasks, token, kind):
    out = run("bc-eval", str(tasks), "--model", "builtin:reference", "--tool-transport", "mcp",
              "--tool-server", f"{server.url}/mcp", token=token)
    assert out.returncode == 2 and out.stdout == b""
    assert f"tool 'calculate': {kind}" in out.stderr.decode() and "BC_TOOLSERVE_TOKEN" in out.stderr.decode()


def test_dry_run_checks_the_mcp_endpoint(server, tasks):
    out = run("bc-eval", str(tasks), "--model", "builtin:reference", "--dry-run", "--tool-transport", "mcp",
              "--tool-server", f"{server.url}/mcp")
    assert out.returncode == 0, out.stderr.decode()
    assert f"tool server {server.url}/mcp/calculate answers and takes the token" in out.stderr.decode()
    assert server.health()["mcp"]["sessions"] == 0


@pytest.mark.parametrize("args, message", [
    (["--tool-transport", "mcp"], "--tool-transport mcp and --tool-server URL go together"),
    (["--tool-server", "http://127.0.0.1:9/mcp"], "--tool-transport mcp and --tool-server URL go together"),
    (["--tool-transport", "mcp", "--tool-server", "http://127.0.0.1:9/mcp?task=x"], "without a query"),
    (["--tool-transport", "mcp", "--tool-server", "ftp://127.0.0.1:9/mcp"], "http(s)://HOST:PORT"),
])
def test_bad_tool_transport_flags_exit_2(tasks, args, message):
    out = run("bc-eval", str(tasks), "--model", "builtin:reference", *args)
    assert out.returncode == 2 and message in out.stderr.decode() and out.stdout == b""
