"""MCP session lifecycle over Streamable HTTP: a session ended while tool calls are in flight (the calls, the
instances, the logs), driven by plain HTTP requests on loopback against a real master and worker."""
from __future__ import annotations

import asyncio
import time

import aiohttp
import pytest

pytest.importorskip("mcp", reason="the mcp extra (official MCP SDK) is not installed")

from tests.mcp.conftest import TOKEN, Server
from tests.mcp.slow_tool import write_config
from tests.toolserve.conftest import wait_for

pytestmark = pytest.mark.timeout(120)
VERSION = "2025-06-18"


class RawSession:
    """One MCP session spoken as plain JSON-RPC over HTTP (what any client does on the wire)."""

    def __init__(self, http: aiohttp.ClientSession, url: str):
        self.http, self.url, self.session_id = http, url, None

    def headers(self) -> dict[str, str]:
        headers = {"Authorization": f"Bearer {TOKEN}", "Accept": "application/json, text/event-stream",
                   "Content-Type": "application/json"}
        if self.session_id:
            headers |= {"mcp-session-id": self.session_id, "mcp-protocol-version": VERSION}
        return headers

    async def open(self) -> None:
        async with self.http.post(self.url, headers=self.headers(), json={
                "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                    "protocolVersion": VERSION, "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}}) as r:
            assert r.status == 200, await r.text()
            self.session_id = r.headers["mcp-session-id"]
        async with self.http.post(self.url, headers=self.headers(),
                                  json={"jsonrpc": "2.0", "method": "notifications/initialized"}) as r:
            assert r.status == 202

    async def call(self, request_id: int, expression: str) -> tuple[int, dict, float]:
        """(HTTP status, JSON body, monotonic time of the answer) of one tools/call."""
        async with self.http.post(self.url, headers=self.headers(), json={
                "jsonrpc": "2.0", "id": request_id, "method": "tools/call",
                "params": {"name": "calculate", "arguments": {"expression": expression}}}) as r:
            body = await r.json(content_type=None)
            return r.status, body, time.monotonic()

    async def delete(self) -> int:
        async with self.http.delete(self.url, headers=self.headers()) as r:
            return r.status


@pytest.fixture(scope="module")
def slow_server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("mcp-slow")
    srv = Server(tmp, tools=write_config(tmp / "slow.yaml", delay=60))
    yield srv
    srv.stop()


def test_deleting_a_session_ends_its_in_flight_calls_with_an_error_and_releases_its_instances(slow_server):
    srv = slow_server
    before = srv.health()
    url = srv.mcp_url(bootcamp="arithmetic", seed=0, index=0)

    async def run():
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=50)) as http:
            session = RawSession(http, url)
            await session.open()
            calls = [asyncio.create_task(session.call(i, f"{i}+1")) for i in range(1, 21)]
            await asyncio.to_thread(wait_for, lambda: srv.health()["instances"]["total"] == before["instances"][
                "total"] + 1, 20.0, "the session's instance on the worker")
            await asyncio.sleep(0.5)  # every call has reached the (60 s) tool
            during = srv.health()
            deleted_at = time.monotonic()
            status = await session.delete()
            answers = await asyncio.gather(*calls)
            return during, deleted_at, status, answers

    during, deleted_at, status, answers = asyncio.run(run())
    assert during["mcp"]["sessions"] == before["mcp"]["sessions"] + 1
    assert status == 200
    assert sorted(str(body.get("id")) for _, body, _ in answers) == sorted(str(i) for i in range(1, 21)), [
        (s, b, round(t - deleted_at, 2)) for s, b, t in answers]
    for http_status, body, answered_at in answers:
        assert http_status == 200 and "error" in body, body  # a JSON-RPC error, not a 500 or a hang
        assert "session" in body["error"]["message"] and "ended" in body["error"]["message"]
        assert answered_at - deleted_at < 5.0  # at once, not when the 60 s tool would have finished
    after = srv.health()
    assert after["mcp"]["sessions"] == before["mcp"]["sessions"]
    assert after["mcp"]["ended"] == before["mcp"]["ended"] + 1
    assert wait_for(lambda: srv.health()["instances"]["total"] == before["instances"]["total"], 5.0,
                    "the worker's instance released at once")
    log = (srv.tmp / "master.log").read_text()
    assert "Traceback" not in log and "ClosedResourceError" not in log, log[-3000:]


def test_session_caps_refuse_with_a_reason_the_sdk_client_shows_and_count_in_health_and_metrics(tmp_path):
    """--mcp-max-sessions-per-client 2 and --mcp-max-sessions 3: a client's third session is refused (429), a
    second address fills the server and its next one is refused (503); a DELETE makes room again."""
    from tests.mcp.conftest import flat, mcp_client
    from tests.toolserve.conftest import call

    srv = Server(tmp_path, tools="arithmetic", master_args=(
        "--mcp-max-sessions", "3", "--mcp-max-sessions-per-client", "2"))
    url = srv.mcp_url(bootcamp="arithmetic", seed=0, index=0)

    async def run():
        other = aiohttp.TCPConnector(local_addr=("127.0.0.2", 0))  # a second client address on loopback
        async with aiohttp.ClientSession() as http, aiohttp.ClientSession(connector=other) as http_b:
            a1, a2, b1, b2 = RawSession(http, url), RawSession(http, url), RawSession(http_b, url), \
                RawSession(http_b, url)
            await a1.open()
            await a2.open()
            try:
                async with mcp_client(url) as client:  # the SDK's client, from the first address
                    await client.list_tools()
                client_refusal = None
            except Exception as exc:
                client_refusal = flat(exc)
            await b1.open()
            async with http_b.post(url, headers=b2.headers(), json={
                    "jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                        "protocolVersion": VERSION, "capabilities": {},
                        "clientInfo": {"name": "raw", "version": "0"}}}) as r:
                server_refusal = r.status, await r.json(content_type=None)
            full = srv.health()["mcp"]
            metrics = call(f"{srv.url}/metrics", token=TOKEN)[1]
            assert await a1.delete() == 200
            await b2.open()  # room again
            return client_refusal, server_refusal, full, metrics, srv.health()["mcp"]

    try:
        client_refusal, server_refusal, full, metrics, after = asyncio.run(run())
    finally:
        srv.stop()
    assert client_refusal and "too many MCP sessions from this client (2, --mcp-max-sessions-per-client)" in \
        client_refusal
    assert server_refusal[0] == 503
    assert "too many MCP sessions on this server (3, --mcp-max-sessions)" in server_refusal[1]["error"]["message"]
    assert server_refusal[1]["error"]["type"] == "too_many_sessions"
    assert full["sessions"] == 3 and full["max_sessions"] == 3 and full["max_sessions_per_client"] == 2
    assert full["clients"] == 2 and full["busiest_client_sessions"] == 2
    refused_client = full["refused"]["client_full"]
    assert full["refused"]["server_full"] == 1 and refused_client >= 1  # the SDK's `auto` client may try twice
    assert "bc_toolserve_mcp_sessions 3" in metrics and "bc_toolserve_mcp_sessions_max 3" in metrics
    assert f'bc_toolserve_mcp_sessions_refused_total{{cap="client_full"}} {refused_client}' in metrics
    assert 'bc_toolserve_mcp_sessions_refused_total{cap="server_full"} 1' in metrics
    assert after["sessions"] == 3 and after["ended"] == 1
