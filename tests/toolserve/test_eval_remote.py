"""bc-eval with a `bc-toolserve config` tool config scores exactly like bc-eval with the local tools."""
from __future__ import annotations

import shutil
import subprocess
import sys

import orjson
import pytest

from tests.seed_configs import seed_configs
from tests.toolserve.conftest import ROOT, Cluster, wait_for

ARITHMETIC_TOOLS = seed_configs() / "tool_config.yaml"
pytestmark = pytest.mark.skipif(not (ARITHMETIC_TOOLS.exists() and shutil.which("bc-eval", path=str(
    ROOT / ".venv" / "bin")) or shutil.which("bc-eval")), reason="needs bc-eval and the arithmetic bootcamp")


def bc(cmd: str, *args: str, env=None, stdin: bytes | None = None) -> bytes:
    proc = subprocess.run([sys.executable, "-c", f"from bc_{cmd}.cli import main; main()", *args], cwd=ROOT,
                          input=stdin, capture_output=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr.decode()[-3000:]
    return proc.stdout


def test_eval_scores_match_local_tools(tmp_path):
    c = Cluster(tmp_path)
    c.tools = str(ARITHMETIC_TOOLS)
    try:
        c.start_master()
        for i in range(2):
            c.start_worker(f"arith{i}")
        c.wait_alive(["arith0", "arith1"])
        remote = tmp_path / "remote.yaml"
        remote.write_bytes(bc("toolserve", "config", str(ARITHMETIC_TOOLS), "--master-url", c.url))
        tasks = bc("gen", "arithmetic", "-n", "12", "--seed", "3")
        runs = {}
        for name, config in (("local", ARITHMETIC_TOOLS), ("remote", remote)):
            out = bc("eval", "--model", "builtin:noisy", "--tool-config", str(config), "-q", "--ordered",
                     env=c.env, stdin=tasks)
            runs[name] = [orjson.loads(line) for line in out.splitlines()]
        assert len(runs["remote"]) == 12
        strip = [(r["id"], r["score"], r["status"], [m.get("content") for m in r["messages"]]) for r in runs["local"]]
        assert strip == [(r["id"], r["score"], r["status"], [m.get("content") for m in r["messages"]])
                         for r in runs["remote"]]
        tool_turns = [t for r in runs["remote"] for t in r["turns"] if t["type"] == "tool"]
        assert tool_turns and all(t["error"] is None for t in tool_turns)
        wait_for(lambda: sum(w["calls"] for w in c.health()["workers"]) >= len(tool_turns), 10,
                 "workers to report the tool calls")
    finally:
        c.stop()


def _eval(*args: str, env: dict, stdin: bytes) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "from bc_eval.cli import main; main()", *args], cwd=ROOT,
                          input=stdin, capture_output=True, timeout=120, env=env)


def test_a_wrong_token_or_a_dead_tool_server_stops_the_run_before_any_row(tmp_path):
    c = Cluster(tmp_path)
    c.tools = str(ARITHMETIC_TOOLS)
    try:
        c.start_master()  # a master alone answers the check: it knows the token, workers are not needed
        remote = tmp_path / "remote.yaml"
        remote.write_bytes(bc("toolserve", "config", str(ARITHMETIC_TOOLS), "--master-url", c.url))
        tasks = bc("gen", "arithmetic", "-n", "5", "--seed", "3")
        out = tmp_path / "out.jsonl"
        args = ["--model", "builtin:reference", "--tool-config", str(remote), "-q", "-o", str(out)]
        wrong = {**c.env, "BC_TOOLSERVE_TOKEN": "not-the-token"}
        proc = _eval(*args, env=wrong, stdin=tasks)
        assert proc.returncode == 2, proc.stderr.decode()
        assert b"forbidden" in proc.stderr and b"BC_TOOLSERVE_TOKEN" in proc.stderr
        assert b"not-the-token" not in proc.stderr and out.read_bytes() == b""
        dry = _eval(*args, "--dry-run", env=wrong, stdin=tasks)
        assert dry.returncode == 2 and b"forbidden" in dry.stderr
        good = _eval(*args, "--dry-run", env=c.env, stdin=tasks)
        assert good.returncode == 0, good.stderr.decode()
        assert f"tool server {c.url}/calculate answers and takes the token".encode() in good.stderr
    finally:
        c.stop()
    dead = _eval(*args, env=c.env, stdin=tasks)  # the master is gone
    assert dead.returncode == 2 and b"unavailable: cannot reach" in dead.stderr and out.read_bytes() == b""
