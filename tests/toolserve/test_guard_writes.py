"""The guarded protocol's answer writes (`bc_toolserve.guard._CycleTransport`): an answer of known length goes out
in one write, and nothing that must go out at once waits (a stream's head, HEAD answers, `100 Continue`)."""
from __future__ import annotations

import asyncio
import socket
import threading
import time

import pytest
import uvicorn

from bc_toolserve.guard import Limits, _CycleTransport
from bc_toolserve.server import bind, server_config
from tests.toolserve.test_hostile import read_response


class Recorder:
    def __init__(self):
        self.writes: list[bytes] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        self.writes.append(bytes(data))

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True


class Cycle:
    def __init__(self, method: str = "POST"):
        self.scope = {"method": method}
        self.response_started = self.response_complete = self.more_body = False
        self.expected_content_length = 0
        self.chunked_encoding = None


class Conn:
    def __init__(self, cycle):
        self.cycle = cycle


def head(cycle: Cycle, length: int | None) -> None:
    """What uvicorn sets before it writes an answer's head."""
    cycle.response_started = True
    if length is None:
        cycle.chunked_encoding = True
    else:
        cycle.expected_content_length, cycle.chunked_encoding = length, False


def test_a_known_length_answer_is_one_write():
    raw, cycle = Recorder(), Cycle()
    t = _CycleTransport(raw, Conn(cycle), cycle)
    head(cycle, 2)
    t.write(b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n")
    assert raw.writes == []
    t.write(b"{}")
    assert raw.writes == [b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}"]
    t.write(b"more")  # later writes (a body in parts) go straight through
    assert raw.writes[-1] == b"more"


@pytest.mark.parametrize("method,length", [("GET", None), ("HEAD", 5), ("POST", 0)])
def test_heads_that_no_body_write_follows_at_once_are_not_held(method, length):
    raw, cycle = Recorder(), Cycle(method)
    t = _CycleTransport(raw, Conn(cycle), cycle)
    head(cycle, length)
    t.write(b"HTTP/1.1 200 OK\r\n\r\n")
    assert raw.writes == [b"HTTP/1.1 200 OK\r\n\r\n"]


def test_continue_before_the_answer_goes_out_and_the_head_is_still_joined():
    raw, cycle = Recorder(), Cycle()
    t = _CycleTransport(raw, Conn(cycle), cycle)
    t.write(b"HTTP/1.1 100 Continue\r\n\r\n")
    assert raw.writes == [b"HTTP/1.1 100 Continue\r\n\r\n"]
    head(cycle, 1)
    t.write(b"H")
    t.write(b"B")
    assert raw.writes[1:] == [b"HB"]


def test_close_sends_a_held_head_first():
    raw, cycle = Recorder(), Cycle()
    t = _CycleTransport(raw, Conn(cycle), cycle)
    head(cycle, 10)
    t.write(b"HEAD-BYTES")
    t.close()  # the app failed before its body: the client gets what was answered, then the close
    assert raw.writes == [b"HEAD-BYTES"] and raw.closed


@pytest.fixture(scope="module")
def server():
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response, StreamingResponse
    from starlette.routing import Route

    async def fixed(request: Request) -> Response:
        return Response(b'{"ok":true}', media_type="application/json")

    async def echo(request: Request) -> Response:
        return Response(await request.body(), media_type="application/json")

    async def stream(request: Request) -> StreamingResponse:
        async def parts():
            yield b"first"
            await asyncio.sleep(1.5)
            yield b"second"
        return StreamingResponse(parts(), media_type="text/plain")

    app = Starlette(routes=[Route("/fixed", fixed, methods=["GET", "HEAD"]), Route("/echo", echo, methods=["POST"]),
                            Route("/stream", stream)])
    sock = bind("127.0.0.1", 0, None)
    srv = uvicorn.Server(server_config(app, Limits(max_connections=64)))
    thread = threading.Thread(target=lambda: asyncio.run(srv.serve(sockets=[sock])), daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not srv.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert srv.started
    yield sock.getsockname()[1]
    srv.should_exit = True
    thread.join(10)


def request(port: int, data: bytes) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.sendall(data)
    return s


def test_answers_over_a_real_server(server):
    with request(server, b"GET /fixed HTTP/1.1\r\nHost: x\r\n\r\n") as s:
        answer = read_response(s)
        assert answer.startswith(b"HTTP/1.1 200") and answer.endswith(b'{"ok":true}')
        s.sendall(b"HEAD /fixed HTTP/1.1\r\nHost: x\r\n\r\n")  # kept alive; a HEAD answer has no body to wait for
        s.settimeout(3)
        head = s.recv(65536)
        assert head.startswith(b"HTTP/1.1 200") and head.endswith(b"\r\n\r\n") and b"content-length: 11" in head
        s.sendall(b"GET /fixed HTTP/1.1\r\nHost: x\r\n\r\n")  # and the connection still serves
        assert read_response(s).endswith(b'{"ok":true}')


def test_a_streams_head_and_first_part_arrive_before_it_ends(server):
    with request(server, b"GET /stream HTTP/1.1\r\nHost: x\r\n\r\n") as s:
        started, got = time.monotonic(), b""
        s.settimeout(5)
        while b"first" not in got:
            chunk = s.recv(65536)
            assert chunk
            got += chunk
        assert time.monotonic() - started < 1.2, "the stream's head waited for its end"
        assert b"transfer-encoding: chunked" in got and b"second" not in got


def test_expect_continue_is_answered_before_the_body(server):
    body = b'{"x":1}'
    with request(server, b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                         b"Expect: 100-continue\r\nContent-Length: %d\r\n\r\n" % len(body)) as s:
        s.settimeout(5)
        assert s.recv(65536).startswith(b"HTTP/1.1 100 Continue")
        s.sendall(body)
        assert read_response(s).endswith(body)
