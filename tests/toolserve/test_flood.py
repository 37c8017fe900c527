"""Slow and idle clients cannot starve a server: header deadline, connection caps, eviction of idle connections.

The flood is bounded (a few hundred sockets) and comes from other loopback addresses (127.0.0.2...), so the
legitimate calls from 127.0.0.1 are a different client; nothing leaves the machine."""
from __future__ import annotations

import concurrent.futures as cf
import os
import resource
import socket
import time

import pytest

from tests.toolserve.conftest import TOKEN, Cluster, call, wait_for
from tests.toolserve.test_hostile import read_response

CAP, PER_CLIENT, HEADER_TIMEOUT = 300, 100, 2.0


@pytest.fixture(scope="module")
def guarded(tmp_path_factory):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 4096)), hard))
    c = Cluster(tmp_path_factory.mktemp("flood"))
    try:
        c.start_master("--max-connections", str(CAP), "--max-connections-per-client", str(PER_CLIENT),
                       "--header-timeout", str(HEADER_TIMEOUT), timeout_per_query=10)
        for i in range(2):
            c.start_worker(f"w{i}")
        c.wait_alive(["w0", "w1"])
        yield c
    finally:
        c.stop()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def connect(c: Cluster, source: str, partial: bool) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", c.port), timeout=5, source_address=(source, 0))
    if partial:
        s.sendall(b"POST /count/create HTTP/1.1\r\nHost: x\r\n")  # headers never finished
    return s


def is_open(s: socket.socket) -> bool:
    s.setblocking(False)  # a peek that never waits
    try:
        return s.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False


def open_fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def test_calls_and_health_keep_working_under_an_idle_connection_flood(guarded):
    c = guarded
    flood: list[socket.socket] = []
    calls: list[tuple[int, float]] = []
    most_fds = 0
    try:
        with cf.ThreadPoolExecutor(2) as pool:
            slow = pool.submit(lambda: c.op("create", {"instance_id": "slow"}) and c.op(
                "execute", {"instance_id": "slow", "parameters": {"step": 1, "sleep": 3}}, timeout=20))
            for wave in range(8):  # 8 x 90 = 720 idle connections against a cap of 300
                source = f"127.0.0.{wave + 2}"
                flood += [connect(c, source, partial=i % 2 == 0) for i in range(90)]
                for op, body in (("create", {"instance_id": f"legit-{wave}"}),
                                 ("execute", {"instance_id": f"legit-{wave}", "parameters": {"step": 2}}),
                                 ("release", {"instance_id": f"legit-{wave}"})):
                    started = time.monotonic()
                    status, answer = c.op(op, body)
                    calls.append((status, time.monotonic() - started))
                    assert status == 200, (op, answer)
                started = time.monotonic()
                assert call(f"{c.url}/health", token=None)[0] == 200
                calls.append((200, time.monotonic() - started))
                most_fds = max(most_fds, open_fds(c.master.pid))
            status, answer = slow.result()
        assert (status, answer.get("text")) == (200, "1"), answer  # a call in progress is never the one closed
        assert max(t for _, t in calls) < 2.0, calls
        assert most_fds < CAP + 60, most_fds  # the cap holds: descriptors stay bounded
        assert sum(is_open(s) for s in flood) <= CAP
    finally:
        for s in flood:
            s.close()


def test_one_address_holds_at_most_its_share(guarded):
    c = guarded
    mine = [connect(c, "127.0.0.20", partial=False) for _ in range(PER_CLIENT + 40)]
    try:
        time.sleep(0.3)
        alive = [is_open(s) for s in mine]
        assert sum(alive) <= PER_CLIENT, (sum(alive), alive)
        assert not any(alive[:40]) and all(alive[-PER_CLIENT // 2:])  # the oldest made room for the newest
        assert call(f"{c.url}/health", token=None)[0] == 200
    finally:
        for s in mine:
            s.close()


def test_unfinished_headers_are_cut_at_the_deadline_even_when_trickled(guarded):
    c = guarded
    silent = connect(c, "127.0.0.30", partial=False)
    partial = connect(c, "127.0.0.30", partial=True)
    trickle = connect(c, "127.0.0.30", partial=False)
    started = time.monotonic()
    try:
        for byte in b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaa":
            if not is_open(trickle) or time.monotonic() - started > HEADER_TIMEOUT + 4:
                break
            try:
                trickle.send(bytes([byte]))
            except OSError:
                break
            time.sleep(0.1)
        wait_for(lambda: not any(is_open(s) for s in (silent, partial, trickle)), HEADER_TIMEOUT + 4,
                 "slow connections closed")
        assert time.monotonic() - started < HEADER_TIMEOUT + 4
        # a kept-alive client that sends its requests promptly is unaffected by the deadline
        s = socket.create_connection(("127.0.0.1", c.port), timeout=5)
        for _ in range(3):
            s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            assert read_response(s).startswith(b"HTTP/1.1 200")
            time.sleep(HEADER_TIMEOUT * 0.75)
        s.close()
    finally:
        for s in (silent, partial, trickle):
            s.close()


def test_huge_headers_are_refused(guarded):
    with socket.create_connection(("127.0.0.1", guarded.port), timeout=5) as s:
        try:
            s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n" + b"X-Pad: " + b"a" * 100_000)
        except OSError:
            pass
        assert s.recv(65536).startswith(b"HTTP/1.1 400")
    assert call(f"{guarded.url}/count/create", {"instance_id": "after-huge"}, token=TOKEN)[0] == 200


def test_a_body_answered_before_it_was_read_is_drained_not_cut(guarded):
    """401 (no token) and 413 come before the body is read; a kept-alive client still sends it (2 MB, far over
    the header bound), reads the answer and goes on using the connection."""
    big = b'{"pad": "' + b"x" * (2 << 20) + b'"}'
    with socket.create_connection(("127.0.0.1", guarded.port), timeout=10) as s:
        for auth, status in ((b"", b"401"), (f"Authorization: Bearer {TOKEN}\r\n".encode(), b"413")):
            s.sendall(b"POST /count/create HTTP/1.1\r\nHost: x\r\n%sContent-Length: %d\r\n\r\n%s"
                      % (auth, len(big), big))
            assert read_response(s).startswith(b"HTTP/1.1 " + status)
        s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")  # the same connection, drained
        assert read_response(s).startswith(b"HTTP/1.1 200")
    # a body that keeps trickling after the answer is still bounded by the deadline
    with socket.create_connection(("127.0.0.1", guarded.port), timeout=10) as s:
        s.sendall(b"POST /count/create HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n{")
        assert read_response(s).startswith(b"HTTP/1.1 401")
        started = time.monotonic()
        while is_open(s) and time.monotonic() - started < HEADER_TIMEOUT + 4:
            try:
                s.send(b"x")
            except OSError:
                break
            time.sleep(0.2)
        assert time.monotonic() - started < HEADER_TIMEOUT + 4


def test_an_early_answer_on_a_closing_connection_lingers_for_the_body(guarded):
    """urllib sends `Connection: close`: after an early 401/413 the server closes, and without a lingering close
    the unread body turns into a reset that the client sees as a broken pipe instead of the answer."""
    big = b'{"pad": "' + b"x" * (4 << 20) + b'"}'
    for _ in range(5):
        assert call(f"{guarded.url}/count/create", raw=big, token=None)[0] == 401
        assert call(f"{guarded.url}/count/create", raw=big, token=TOKEN)[0] == 413
