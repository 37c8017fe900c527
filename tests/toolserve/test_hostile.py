"""Hostile input and faults on loopback: exact id checks, lying bodies, slow proofs, races, hung and restarted workers."""
from __future__ import annotations

import asyncio
import concurrent.futures as cf
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

import orjson
import pytest
import uvicorn

from bc_common.errors import ConfigError, ToolError
from bc_common.remote_tool import RemoteTool, _sessions
from bc_toolserve.master import Master, MasterSettings
from tests.toolserve.conftest import ROOT, TOKEN, Cluster, _running_cluster, call, free_port, wait_for
from tests.toolserve.counter_tool import SCHEMA


@pytest.fixture(scope="module")
def hostile_cluster(tmp_path_factory):
    yield from _running_cluster(tmp_path_factory.mktemp("hostile"))


# --- an in-process master with short timeouts (a real uvicorn server on 127.0.0.1) -------------------------
class InProcessMaster:
    def __init__(self, master_cls=Master, **settings):
        self.master = master_cls(MasterSettings(token=TOKEN, **settings))
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(256)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.server = uvicorn.Server(uvicorn.Config(self.master.app(), log_level="warning", lifespan="on"))
        self.thread = threading.Thread(target=lambda: asyncio.run(self.server.serve(sockets=[self.sock])), daemon=True)
        self.thread.start()
        wait_for(lambda: call(f"{self.url}/health", timeout=1)[0] == 200, what="in-process master")

    def stop(self):
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()


@pytest.fixture
def quick_master():
    m = InProcessMaster(body_timeout=0.5, proof_timeout=0.5)
    yield m
    m.stop()


class Silent:
    """A TCP server that accepts connections and never answers (a hung peer)."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(1024)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.conns = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                self.conns.append(self.sock.accept()[0])
            except OSError:
                return

    def close(self):
        self.sock.close()
        for c in self.conns:
            c.close()


def http_trap(answer):
    """A tiny HTTP server; `answer(handler)` writes the response. Returns (server, url, seen paths)."""
    seen = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            seen.append((self.path, self.headers.get("Authorization")))
            answer(self)

        do_GET = do_POST

        def log_message(self, *args):
            pass

    server = HTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}", seen


def register(url: str, worker_url: str, worker_id: str = "evil", tools=("count",), timeout: float = 10):
    return call(f"{url}/_workers/register", {"worker_id": worker_id, "url": worker_url, "tools": list(tools)},
                timeout=timeout)


# --- exact validation ---------------------------------------------------------------------------------------
def test_ids_and_tool_names_are_matched_whole(hostile_cluster):
    c = hostile_cluster
    for bad in ("a\n", "ok\n", "x" * 129, "é", "a/b", "../x", "", 7):
        status, answer = c.op("create", {"instance_id": bad})
        assert (status, answer["error"]["type"]) == (400, "bad_request"), bad
    status, answer = register(c.url, "http://127.0.0.1:1", tools=["count\n"])
    assert (status, answer["error"]["type"]) == (400, "bad_request")  # refused before any proof attempt
    for path in ("/count%0a/create", "/..%2F..%2Fetc/create", "/count/destroy", "/count/create/"):
        status, answer = call(c.url + path, {})
        assert status == 404 and answer["error"]["type"] in ("not_found", "unknown_tool"), path  # no 307 either
    assert call(f"{c.url}/count/create")[0] == 405


def test_bad_heartbeat_is_400_not_500(hostile_cluster):
    for released in (5, "x", {"a": 1}):
        status, answer = call(f"{hostile_cluster.url}/_workers/heartbeat", {"worker_id": "w0", "released": released})
        assert (status, answer["error"]["type"]) == (400, "bad_request"), released


def read_response(s: socket.socket) -> bytes:
    """One whole HTTP response: headers and body may arrive in separate segments."""
    answer = b""
    while True:
        head, sep, body = answer.partition(b"\r\n\r\n")
        if sep:
            length = next((int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                           if line.lower().startswith(b"content-length:")), 0)
            if len(body) >= length:
                return answer
        try:
            chunk = s.recv(65536)
        except OSError:
            return answer
        if not chunk:
            return answer
        answer += chunk


def test_bodies_over_the_limit_and_chunked(hostile_cluster):
    def raw(request: bytes) -> bytes:
        with socket.create_connection(("127.0.0.1", hostile_cluster.port), timeout=10) as s:
            try:
                s.sendall(request)
            except OSError:
                pass
            return read_response(s)

    auth = f"Authorization: Bearer {TOKEN}\r\n".encode()
    piece = b"a" * 65536
    chunked = b"".join(b"%x\r\n" % len(piece) + piece + b"\r\n" for _ in range(20)) + b"0\r\n\r\n"
    head = b"POST /count/create HTTP/1.1\r\nHost: x\r\n" + auth
    assert raw(head + b"Transfer-Encoding: chunked\r\n\r\n" + chunked).startswith(b"HTTP/1.1 413")
    assert raw(head + b"Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked).startswith(b"HTTP/1.1 400")
    assert raw(head + b"Content-Length: 5\r\n\r\n" + b'{"instance_id": "x"}').startswith(b"HTTP/1.1 400")


def test_client_gone_mid_body_is_counted_not_a_traceback(hostile_cluster):
    c = hostile_cluster
    with socket.create_connection(("127.0.0.1", c.port), timeout=5) as s:
        s.sendall(f"POST /count/execute HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {TOKEN}\r\n"
                  f"Content-Length: 100\r\n\r\n{{\"in".encode())
        time.sleep(0.2)  # let the server start reading the body

    def counted():
        metrics = call(f"{c.url}/metrics")[1]
        return 'bc_toolserve_requests_total{operation="execute",status="400"}' in metrics

    wait_for(counted, 10, "the aborted request answered as a typed error")
    assert "Traceback" not in c.log("master")


def test_lying_content_length_times_out_with_408(quick_master):
    with socket.create_connection(("127.0.0.1", int(quick_master.url.rsplit(":", 1)[1])), timeout=10) as s:
        started = time.monotonic()
        s.sendall(f"POST /count/create HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {TOKEN}\r\n"
                  f"Content-Length: 1000\r\n\r\n{{}}".encode())
        answer = read_response(s)
    assert answer.startswith(b"HTTP/1.1 408"), answer
    assert b'"timeout"' in answer and time.monotonic() - started < 5


# --- registration -------------------------------------------------------------------------------------------
def test_slow_proof_times_out_and_a_flood_does_not_stall_the_master(quick_master):
    silent = Silent()
    try:
        started = time.monotonic()
        status, answer = register(quick_master.url, silent.url)
        assert (status, answer["error"]["type"]) == (403, "proof_failed")
        assert time.monotonic() - started < 4

        with cf.ThreadPoolExecutor(64) as pool:
            flooded = time.monotonic()
            flood = [pool.submit(register, quick_master.url, silent.url, f"f{i}", timeout=30) for i in range(200)]
            slowest = 0.0
            while not all(f.done() for f in flood):
                t = time.monotonic()
                assert call(f"{quick_master.url}/health", timeout=10)[0] == 200
                slowest = max(slowest, time.monotonic() - t)
            assert {f.result()[0] for f in flood} == {403}
            flood_s = time.monotonic() - flooded
        # a master that waited on the proofs one at a time would take 200 x 0.5 s and hold /health behind them;
        # bounds tied to the proof timeout (10 proofs' worth), not to this process's 64 client threads' GIL share
        assert flood_s < 200 * 0.5 / 4, flood_s
        assert slowest < 10 * 0.5, slowest
        assert call(f"{quick_master.url}/health")[1]["workers_total"] == 0
    finally:
        silent.close()


def test_proof_redirects_are_not_followed_and_odd_proofs_are_403(quick_master):
    target, target_url, target_seen = http_trap(lambda h: (h.send_response(200), h.end_headers()))

    def redirect(h):
        h.send_response(307)
        h.send_header("Location", f"{target_url}/_proof")
        h.end_headers()

    def non_ascii(h):
        body = orjson.dumps({"proof": "é" * 64})
        h.send_response(200)
        h.send_header("Content-Type", "application/json")
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body)

    traps = [http_trap(redirect), http_trap(non_ascii)]
    try:
        for _, url, seen in traps:
            status, answer = register(quick_master.url, url)
            assert (status, answer["error"]["type"]) == (403, "proof_failed")
            assert seen == [("/_proof", None)]
        assert target_seen == []
    finally:
        for server, _, _ in [*traps, (target, None, None)]:
            server.shutdown()


# --- instance lifecycle -------------------------------------------------------------------------------------
def test_execute_after_a_direct_release_is_404_not_410(hostile_cluster):
    c = hostile_cluster
    status, answer = c.op("create", {"instance_id": "gone-direct"})
    assert status == 200
    release_directly(answer["worker_url"], "gone-direct")
    for op, body in (("execute", {"parameters": {"step": 1}}), ("calc_reward", {})):
        status, answer = c.op(op, {"instance_id": "gone-direct", **body})
        assert (status, answer["error"]["type"]) == (404, "unknown_instance"), op
    assert c.op("release", {"instance_id": "gone-direct"}) == (200, {"released": False})
    assert c.op("create", {"instance_id": "gone-direct"})[0] == 200  # the id may be used again
    assert c.op("release", {"instance_id": "gone-direct"}) == (200, {"released": True})


def test_concurrent_creates_of_one_id_have_exactly_one_winner(hostile_cluster):
    """Also right after a direct release, when the master must ask the worker before refusing."""
    c = hostile_cluster
    with cf.ThreadPoolExecutor(12) as pool:
        for round_ in range(25):
            instance_id = f"race-{round_}"
            status, answer = c.op("create", {"instance_id": instance_id})
            assert status == 200
            release_directly(answer["worker_url"], instance_id)
            results = list(pool.map(lambda _, i=instance_id: c.op("create", {"instance_id": i}), range(12)))
            statuses = sorted(r[0] for r in results)
            assert statuses == [200] + [409] * 11, (round_, statuses)
            assert c.op("release", {"instance_id": instance_id}) == (200, {"released": True})
    assert c.health()["instances"]["total"] == 0 or wait_for(
        lambda: c.health()["instances"]["total"] == 0, 10, "no orphan placements")


def release_directly(worker_url: str, instance_id: str) -> None:
    """Release on the worker as RemoteTool does; a worker whose loop stalled past the heartbeat deadline (a loaded
    machine) refuses direct calls with a retryable 503 until it has registered again: retry then, as a client would."""
    def released():
        status, answer = call(f"{worker_url}/count/release", {"instance_id": instance_id})
        assert status in (200, 503), (status, answer)
        return status == 200 and answer == {"released": True}

    wait_for(released, 20, f"direct release of {instance_id!r}")


def worker_heartbeat(c, worker_id: str, released: list, incarnations: list | None):
    body = {"worker_id": worker_id, "calls": 0, "released": released}
    if incarnations is not None:
        body["incarnations"] = incarnations
    return call(f"{c.url}/_workers/heartbeat", body)


def test_a_heartbeat_built_before_an_id_was_created_again_keeps_the_new_instance(hostile_cluster):
    """A worker reports a direct release with its next heartbeat; if the id is created again before that heartbeat
    arrives (built earlier, slow on the wire), the report names the old incarnation and the new placement stays."""
    c = hostile_cluster
    instance_id = "stale-heartbeat"
    status, first = c.op("create", {"instance_id": instance_id})
    assert status == 200
    old = call(f"{first['worker_url']}/_instances/exists", {"instance_id": instance_id})[1]["incarnation"]
    release_directly(first["worker_url"], instance_id)
    status, again = c.op("create", {"instance_id": instance_id})
    assert status == 200
    new = call(f"{again['worker_url']}/_instances/exists", {"instance_id": instance_id})[1]
    assert new["exists"] and new["incarnation"] != old
    owner = again["worker_id"]
    # the stale report, as the new owner's heartbeat (the owner may be another worker: ids are its own either way)
    assert worker_heartbeat(c, owner, [instance_id], [old]) == (200, {"ok": True})
    assert c.op("execute", {"instance_id": instance_id, "parameters": {"step": 4}})[0] == 200
    assert worker_heartbeat(c, first["worker_id"], [instance_id], [old]) == (200, {"ok": True})
    assert c.op("execute", {"instance_id": instance_id, "parameters": {"step": 1}})[1]["text"] == "5"
    # malformed incarnations are refused whole, before any drop
    for bad in ([], [old, old], "x"):
        status, answer = worker_heartbeat(c, owner, [instance_id], bad)
        assert (status, answer["error"]["type"]) == (400, "bad_request"), bad
    # the report of this very incarnation drops the placement (the master answers 404, not 410)
    assert worker_heartbeat(c, owner, [instance_id], [new["incarnation"]]) == (200, {"ok": True})
    status, answer = c.op("execute", {"instance_id": instance_id, "parameters": {"step": 1}})
    assert (status, answer["error"]["type"]) == (404, "unknown_instance")
    release_directly(again["worker_url"], instance_id)


def test_remote_tool_release_and_calls_on_unknown_ids(hostile_cluster, monkeypatch):
    monkeypatch.setenv("BC_TOOLSERVE_TOKEN", TOKEN)

    async def run():
        tool = RemoteTool({"type": "native", "server_url": hostile_cluster.url, "timeout_per_query": 10}, SCHEMA)
        instance_id = await tool.create(None, identity={})
        await tool.release(instance_id)
        await tool.release(instance_id)  # idempotent
        await tool.release("never-created")
        with pytest.raises(ToolError) as exc:
            await tool.execute(instance_id, {"step": 1})
        return exc.value.kind, asyncio.get_running_loop() in _sessions

    kind, session_left_open = asyncio.run(run())
    assert kind == "unknown_instance"
    assert not session_left_open


def test_remote_tool_does_not_follow_redirects(monkeypatch):
    monkeypatch.setenv("BC_TOOLSERVE_TOKEN", TOKEN)
    target, target_url, target_seen = http_trap(lambda h: (h.send_response(200), h.end_headers()))

    def redirect(h):
        h.send_response(307)
        h.send_header("Location", f"{target_url}/count/create")
        h.send_header("Content-Length", "0")
        h.end_headers()

    server, url, seen = http_trap(redirect)
    try:
        tool = RemoteTool({"type": "native", "server_url": url, "timeout_per_query": 5, "retries": 0}, SCHEMA)
        with pytest.raises(ToolError):
            asyncio.run(tool.create("r", identity={}))
        assert len(seen) == 1 and target_seen == []
    finally:
        server.shutdown()
        target.shutdown()


@pytest.mark.parametrize("config", [{"timeout_per_query": "soon"}, {"timeout_per_query": 0}, {"retries": "x"}])
def test_remote_tool_bad_config_is_a_config_error(config):
    with pytest.raises(ConfigError):
        RemoteTool({"type": "native", "server_url": "http://127.0.0.1:1", **config}, SCHEMA)


# --- faults -------------------------------------------------------------------------------------------------
def test_hung_worker_fails_waiting_calls_when_declared_dead_and_410_stays_final(tmp_path, monkeypatch):
    """SIGSTOP: the worker's socket still accepts, nothing answers. A call waiting on it through the master ends
    when the master declares it dead (~1.5 s here), not at timeout_per_query (60 s), with a retryable 503
    whose repeat is the final 410; after SIGCONT and re-registration the instance stays lost."""
    monkeypatch.setenv("BC_TOOLSERVE_TOKEN", TOKEN)
    c = Cluster(tmp_path)
    try:
        c.start_master(timeout_per_query=60)
        for i in range(2):
            c.start_worker(f"w{i}")
        c.wait_alive(["w0", "w1"])
        status, answer = c.op("create", {"instance_id": "hung"})
        owner, worker_url = answer["worker_id"], answer["worker_url"]
        proc = c.workers[owner]

        async def direct_while_hung():  # RemoteTool calls the worker directly: it asks the master while slow
            tool = RemoteTool({"type": "native", "server_url": c.url, "timeout_per_query": 60}, SCHEMA)
            tool._live.add("hung")
            tool._workers["hung"], tool._worker_ids["hung"] = worker_url, owner
            t = time.monotonic()
            with pytest.raises(ToolError) as exc:
                await tool.execute("hung", {"step": 1})
            return exc.value.kind, time.monotonic() - t

        os.kill(proc.pid, signal.SIGSTOP)
        try:
            started = time.monotonic()
            with cf.ThreadPoolExecutor(5) as pool:  # several calls waiting at once all fail at once
                direct = pool.submit(asyncio.run, direct_while_hung())
                waiting = list(pool.map(lambda _: c.op("execute", {"instance_id": "hung", "parameters": {"step": 1}},
                                                       timeout=30), range(4)))
            took = time.monotonic() - started
            kind, direct_took = direct.result()
            assert kind == "instance_lost" and direct_took < 8, (kind, direct_took)  # not the 60 s timeout
            assert {(s, a["error"]["type"], a["error"]["retryable"]) for s, a in waiting} == {(503, "worker_lost", True)}
            assert took < 5, took  # declared dead after 3 x 0.5 s heartbeats; far below the 60 s query timeout
            assert c.op("execute", {"instance_id": "hung", "parameters": {"step": 1}})[0] == 410  # the repeat
            assert c.op("create", {"instance_id": "elsewhere"})[1]["worker_id"] != owner
        finally:
            os.kill(proc.pid, signal.SIGCONT)
        c.wait_alive([owner])  # it learns it was declared dead and registers again
        wait_for(lambda: "dropped instance 'hung'" in c.log(f"worker-{list(c.workers).index(owner)}"), 10,
                 "the resumed worker dropping the lost instance")
        for _ in range(3):
            status, answer = c.op("execute", {"instance_id": "hung", "parameters": {"step": 1}})
            assert (status, answer["error"]["type"]) == (410, "instance_lost")
            assert call(f"{worker_url}/count/execute", {"instance_id": "hung", "parameters": {"step": 1}})[0] == 404
            time.sleep(0.3)

        async def remote():  # RemoteTool, whose calls go to the worker directly: lost too
            tool = RemoteTool({"type": "native", "server_url": c.url, "timeout_per_query": 10}, SCHEMA)
            tool._live.add("hung")
            tool._workers["hung"] = worker_url
            with pytest.raises(ToolError) as exc:
                await tool.execute("hung", {"step": 1})
            return exc.value.kind

        assert asyncio.run(remote()) == "instance_lost"
    finally:
        c.stop()


def test_resumed_worker_refuses_direct_calls_until_registered_again():
    """The flag is set by a timer that runs before requests queued during the pause (checked in-process)."""
    from bc_toolserve.worker import Worker, WorkerSettings
    from tests.toolserve.counter_tool import CounterTool

    async def run():
        worker = Worker({"count": CounterTool({}, SCHEMA)}, WorkerSettings("w"))
        worker.dead_after = 0.2
        async with worker.lifespan(None):
            await worker._create("count", {"instance_id": "a"})
            assert not worker.suspect
            time.sleep(0.5)  # the whole event loop frozen, as under SIGSTOP
            await asyncio.sleep(0.01)
            suspect = worker.suspect
            answer = await worker.call("count", "execute", {"path": "/count/execute", "headers": []}, None)

            async def receive():
                return {"type": "http.request", "body": b'{"instance_id": "a", "parameters": {"step": 2}}'}

            routed = await worker.call("count", "execute", {"path": "/count/execute",
                                                            "headers": [(b"x-bc-forwarded", b"1")]}, receive)
            return (suspect, answer.status_code, orjson.loads(answer.body)["error"]["type"], routed.status_code,
                    orjson.loads(routed.body)["text"])

    # direct calls are refused; what the master routes (it decides who is alive) is served
    assert asyncio.run(run()) == (True, 503, "worker_resuming", 200, "2")


def test_worker_restarted_with_same_id_and_port_does_not_serve_old_instances(tmp_path, monkeypatch):
    monkeypatch.setenv("BC_TOOLSERVE_TOKEN", TOKEN)
    c = Cluster(tmp_path)
    port = free_port()
    args = ["worker", "--master-url", None, "--tools", c.tools, "--worker-id", "same", "--port", str(port)]
    try:
        c.start_master()
        args[2] = c.url
        c.workers["same"] = c._spawn("worker-0", args)
        c.wait_alive(["same"])
        assert c.op("create", {"instance_id": "old"})[0] == 200
        assert c.op("execute", {"instance_id": "old", "parameters": {"step": 4}})[1]["text"] == "4"
        c.workers["same"].kill()
        c.workers["same"].wait()
        c.workers["same"] = c._spawn("worker-1", args)
        wait_for(lambda: call(f"http://127.0.0.1:{port}/health", timeout=1)[0] == 200, what="fresh worker")
        status, answer = c.op("execute", {"instance_id": "old", "parameters": {"step": 1}})
        assert (status, answer["error"]["type"]) == (410, "instance_lost")
        wait_for(lambda: c.health()["instances"]["lost"] == 1, 10, "old instance counted lost")
        assert c.op("calc_reward", {"instance_id": "old"})[0] == 410
        c.wait_alive(["same"])  # its /health answers before it has registered: wait for the registration
        assert c.op("create", {"instance_id": "new"})[0] == 200  # the fresh worker serves new instances
        assert c.op("execute", {"instance_id": "old", "parameters": {"step": 1}})[0] == 410  # still final
    finally:
        c.stop()


def test_hostile_worker_ids_are_escaped_in_metrics(hostile_cluster):
    hostile = 'q"b\\s\nn'
    hostile_cluster.start_worker(hostile)
    hostile_cluster.wait_alive([hostile])
    metrics = call(f"{hostile_cluster.url}/metrics")[1]
    assert 'bc_toolserve_worker_up{worker="q\\"b\\\\s\\nn"} 1' in metrics
    for line in metrics.splitlines():
        assert line.startswith(("#", "bc_toolserve_")), line


# --- CLI ----------------------------------------------------------------------------------------------------
def _cli(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "BC_TOOLSERVE_TOKEN"}
    return subprocess.run([sys.executable, "-m", "bc_toolserve", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=60, env={**env, "PYTHONPATH": str(ROOT)})


def test_unified_on_a_busy_port_fails_clearly(tmp_path):
    tools = Cluster(tmp_path).tools
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        proc = _cli("unified", "--tools", tools, "-n", "1", "--port", str(busy.getsockname()[1]), "--test")
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr and "cannot bind" in proc.stderr


def test_bad_advertise_url_and_public_bind_without_token_exit_2(tmp_path):
    tools = Cluster(tmp_path).tools
    for args, message in ((["--advertise-url", "file:///etc/passwd"], "--advertise-url"),
                          (["--host", "0.0.0.0"], "without a token")):
        proc = _cli("worker", "--master-url", "http://127.0.0.1:1", "--tools", tools, *args)
        assert proc.returncode == 2 and message in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
