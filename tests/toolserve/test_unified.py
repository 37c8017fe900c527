"""`bc-toolserve unified` supervises a master and workers; `config` writes a RemoteTool config; seed flags work."""
from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import yaml

from bc_common.tool_config import load_tool_config
from tests.toolserve.conftest import ROOT, Cluster, call, free_port, wait_for
from tests.toolserve.counter_tool import write_config


def test_unified_restarts_crashed_worker_and_stops_cleanly(tmp_path):
    c = Cluster(tmp_path)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    # the seed's spellings: --mode, --tools_yaml_path, --num_workers, --log_dir
    proc = subprocess.Popen([sys.executable, "-m", "bc_toolserve", "--mode", "unified", "--tools_yaml_path",
                             c.tools, "--num_workers", "2", "--port", str(port), "--heartbeat-interval", "0.25",
                             "--log_dir", str(tmp_path / "logs")], cwd=ROOT, env=c.env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        def alive():
            status, state = call(f"{url}/health", timeout=1)
            return state if status == 200 and state["workers_alive"] == 2 else None

        state = wait_for(alive, 30, "two live workers")
        pids = {w["worker_id"]: w["pid"] for w in state["workers"]}
        victim = "unified-0"
        subprocess.run(["kill", "-KILL", str(pids[victim])], check=True)
        restarted = wait_for(lambda: (s := alive()) and {w["worker_id"]: w["pid"] for w in s["workers"]}[victim]
                             != pids[victim] and s, 20, "worker restarted")
        assert restarted["workers_alive"] == 2
        status, answer = call(f"{url}/count/create", {"instance_id": "after-restart"}, token=c.token)
        assert status == 200
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=20)
        assert proc.returncode == 130 and b"bc-toolserve: interrupted" in err  # the shared exit path (issue 24.1)
        assert out == b""  # stdout carries records only
        all_pids = [w["pid"] for w in restarted["workers"]]
        for pid in all_pids:
            assert subprocess.run(["kill", "-0", str(pid)], capture_output=True).returncode != 0
        assert (tmp_path / "logs" / "master.log").exists()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_unified_self_test_exits(tmp_path):
    tools = write_config(tmp_path / "tools.yaml")
    proc = subprocess.run([sys.executable, "-m", "bc_toolserve", "unified", "--tools", tools, "-n", "1",
                           "--port", str(free_port()), "--test", "--output-dir", str(tmp_path / "out")],
                          cwd=ROOT, capture_output=True, timeout=60, env=Cluster(tmp_path).env)
    assert proc.returncode == 0, proc.stderr.decode()
    assert b"test count: ok" in proc.stderr
    specs = load_tool_config(tmp_path / "out" / "remote_tool_config.yaml")
    assert specs[0].class_name == "bc_common.remote_tool.RemoteTool"


def test_config_command_writes_remote_tool_config(tmp_path):
    tools = write_config(tmp_path / "tools.yaml")
    proc = subprocess.run([sys.executable, "-m", "bc_toolserve", "config", tools, "--master-url",
                           "http://10.0.0.5:8000"], cwd=ROOT, capture_output=True, timeout=30)
    assert proc.returncode == 0, proc.stderr.decode()
    remote = yaml.safe_load(proc.stdout)
    local = yaml.safe_load(Path(tools).read_text())
    entry = remote["tools"][0]
    assert entry["class_name"] == "bc_common.remote_tool.RemoteTool"
    assert entry["config"] == {"type": "native", "server_url": "http://10.0.0.5:8000", "timeout_per_query": 60}
    assert entry["tool_schema"] == local["tools"][0]["tool_schema"]
    bad = subprocess.run([sys.executable, "-m", "bc_toolserve", "config", tools, "--master-url", "file:///x"],
                         cwd=ROOT, capture_output=True, timeout=30)
    assert bad.returncode == 2
