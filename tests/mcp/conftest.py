"""A real bc-toolserve master and worker on loopback (subprocesses) and the official MCP SDK's client (test modules
that use it skip without the `mcp` extra)."""
from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.toolserve.conftest import call, free_port, wait_for

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "test-token-mcp-1234"


class Server:
    """`bc-toolserve master` + one `worker` serving `tools`, as real processes."""

    def __init__(self, tmp: Path, tools: str = "arithmetic,minesweeper", master_args: tuple[str, ...] = (),
                 token: str | None = TOKEN):
        self.tmp, self.port = tmp, free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "PYTHONPATH": str(ROOT), "BC_TOOLSERVE_TOKEN": token or ""}
        # heartbeats every 2 s: on a loaded CI box a faster beat runs late and the worker is taken for dead
        self.procs = [self._spawn("master", ["master", "--port", str(self.port), "--heartbeat-interval", "2",
                                             *master_args])]
        try:
            wait_for(lambda: call(f"{self.url}/health", timeout=1)[0] == 200, 60.0, "master /health")  # busy CI box
            self.procs.append(self._spawn("worker", ["worker", "--master-url", self.url, "--tools", tools,
                                                     "--worker-id", "w0"]))
            wait_for(lambda: self.health().get("workers_alive") == 1, 60.0, "worker alive")
        except BaseException:
            self.stop()  # no server outlives a failed start
            raise

    def _spawn(self, name: str, args: list[str]) -> subprocess.Popen:
        with open(self.tmp / f"{name}.log", "ab") as log:
            return subprocess.Popen([sys.executable, "-m", "bc_toolserve", *args], cwd=ROOT, env=self.env,
                                    stdout=subprocess.DEVNULL, stderr=log)

    def health(self) -> dict:
        status, state = call(f"{self.url}/health", timeout=2)
        return state if status == 200 else {}

    def mcp_url(self, **query) -> str:
        return f"{self.url}/mcp?" + "&".join(f"{k}={v}" for k, v in query.items())

    def stop(self) -> None:
        for proc in reversed(self.procs):
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("mcp"))
    yield srv
    srv.stop()


@contextlib.asynccontextmanager
async def mcp_client(url: str, token: str | None = TOKEN):
    """The SDK's client over Streamable HTTP, with `Authorization: Bearer token` when given."""
    import httpx2  # the SDK's HTTP client
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx2.AsyncClient(headers=headers) as http, \
            Client(streamable_http_client(url, http_client=http)) as client:
        yield client


def expression_of(prompt_text: str) -> str:
    """What an agent reads off an arithmetic prompt (any of its phrasings): the longest arithmetic expression."""
    return max(re.findall(r"[\d(][\d +\-×÷*/().]*[\d)]", prompt_text), key=len)


async def solve_arithmetic(client) -> str:
    """Play an arithmetic task as an agent would (prompt -> one `calculate` call per operation, in order ->
    answer); returns the final answer text."""
    from bootcamps.arithmetic.steps import operations, step_text

    prompt = await client.get_prompt("task")
    known: dict[int, str] = {}
    for op in operations(expression_of(prompt.messages[0].content.text)):  # operands before their operation
        result = await client.call_tool("calculate", {"expression": step_text(op, known)})
        assert not result.is_error, result.content[0].text
        known[id(op)] = result.content[0].text
    return f'The calculator says so.\n```json\n{{"result": {known[id(op)]}}}\n```'


def flat(exc: BaseException) -> str:
    """Every message in an exception and the groups anyio wraps it in."""
    inner = getattr(exc, "exceptions", None) or []
    return " | ".join([f"{type(exc).__name__}: {exc}"] + [flat(e) for e in inner])
