"""Real processes on loopback: a master and workers started through the CLI, and a tiny HTTP client."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import orjson
import pytest

from tests.toolserve.counter_tool import write_config

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "test-token-1234"
HEARTBEAT = 0.5  # dead after 3 missed = 1.5 s (a loaded CI machine stalls a process for 0.75 s now and then)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(url: str, body=None, token: str | None = TOKEN, timeout: float = 10.0, raw: bytes | None = None):
    """POST `body` (GET when None) and return (status, parsed JSON or text)."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = raw if raw is not None else (orjson.dumps(body) if body is not None else None)
    req = urllib.request.Request(url, data=data, headers=headers, method="POST" if data is not None else "GET")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            status, payload, ctype = resp.status, resp.read(), resp.headers.get("content-type", "")
    except urllib.error.HTTPError as exc:
        status, payload, ctype = exc.code, exc.read(), exc.headers.get("content-type", "")
    return status, (orjson.loads(payload) if "json" in ctype else payload.decode())


def wait_for(predicate, timeout: float = 20.0, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = predicate()
        except OSError:
            value = None
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


class Cluster:
    """A master and workers as separate `python -m bc_toolserve` processes."""

    def __init__(self, tmp: Path, token: str | None = TOKEN):
        self.tmp = tmp
        self.token = token
        self.tools = write_config(tmp / "tools.yaml")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.master: subprocess.Popen | None = None
        self.workers: dict[str, subprocess.Popen] = {}
        self.env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.env.pop("BC_TOOLSERVE_TOKEN", None)
        if token:
            self.env["BC_TOOLSERVE_TOKEN"] = token

    def _spawn(self, name: str, args: list[str]) -> subprocess.Popen:
        with open(self.tmp / f"{name}.log", "ab") as log:
            return subprocess.Popen([sys.executable, "-m", "bc_toolserve", *args], cwd=ROOT, env=self.env,
                                    stdout=subprocess.DEVNULL, stderr=log)

    def start_master(self, *extra: str, timeout_per_query: float = 1.5) -> None:
        self.master = self._spawn("master", ["master", "--port", str(self.port), "--heartbeat-interval",
                                             str(HEARTBEAT), "--timeout-per-query", str(timeout_per_query), *extra])
        wait_for(lambda: call(f"{self.url}/health", timeout=1)[0] == 200, what="master /health")

    def start_worker(self, worker_id: str) -> None:
        self.workers[worker_id] = self._spawn(f"worker-{len(self.workers)}", [
            "worker", "--master-url", self.url, "--tools", self.tools, "--worker-id", worker_id,
            "--instance-ttl", "30"])

    def wait_alive(self, ids, timeout: float = 20.0) -> dict:
        def ready():
            state = self.health()
            alive = {w["worker_id"] for w in state.get("workers", []) if w["status"] == "alive"}
            return state if set(ids) <= alive and state["status"] == "ok" else None  # "ok": past recovery

        return wait_for(ready, timeout, f"workers {sorted(ids)} alive")

    def health(self) -> dict:
        status, state = call(f"{self.url}/health", timeout=2)
        return state if status == 200 else {}

    def op(self, op: str, body: dict, tool: str = "count", timeout: float = 10.0):
        return self.op_at(self.url, op, body, tool, timeout)

    def op_at(self, url: str, op: str, body: dict, tool: str = "count", timeout: float = 10.0):
        return call(f"{url}/{tool}/{op}", body, token=self.token, timeout=timeout)

    def log(self, name: str) -> str:
        path = self.tmp / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        for proc in [*self.workers.values(), self.master]:
            if proc is not None and proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in [*self.workers.values(), self.master]:
            if proc is not None:
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()


def _running_cluster(tmp: Path):
    c = Cluster(tmp)
    try:
        c.start_master()
        for i in range(3):
            c.start_worker(f"w{i}")
        c.wait_alive(["w0", "w1", "w2"])
        yield c
    finally:
        c.stop()


@pytest.fixture
def cluster(tmp_path):
    """A fresh 1 master + 3 worker processes with a token and a fast heartbeat (for tests that break it)."""
    yield from _running_cluster(tmp_path)


@pytest.fixture(scope="module")
def shared_cluster(tmp_path_factory):
    """One cluster for the tests of a module that leave it working."""
    yield from _running_cluster(tmp_path_factory.mktemp("cluster"))
