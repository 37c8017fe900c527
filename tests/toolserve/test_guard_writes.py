"""The guarded protocol's answer writes (`bc_toolserve.answer_writes.CycleTransport`): an answer of known length goes out
in one write, and nothing that must go out at once waits (a stream's head, HEAD answers, `100 Continue`)."""
from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time

import pytest
import uvicorn

from bc_toolserve.answer_writes import CycleTransport
from bc_toolserve.guard import Limits
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
    t = CycleTransport(raw, Conn(cycle), cycle)
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
    t = CycleTransport(raw, Conn(cycle), cycle)
    head(cycle, length)
    t.write(b"HTTP/1.1 200 OK\r\n\r\n")
    assert raw.writes == [b"HTTP/1.1 200 OK\r\n\r\n"]


def test_continue_before_the_answer_goes_out_and_the_head_is_still_joined():
    raw, cycle = Recorder(), Cycle()
    t = CycleTransport(raw, Conn(cycle), cycle)
    t.write(b"HTTP/1.1 100 Continue\r\n\r\n")
    assert raw.writes == [b"HTTP/1.1 100 Continue\r\n\r\n"]
    head(cycle, 1)
    t.write(b"H")
    t.write(b"B")
    assert raw.writes[1:] == [b"HB"]


def test_close_sends_a_held_head_first():
    raw, cycle = Recorder(), Cycle()
    t = CycleTransport(raw, Conn(cycle), cycle)
    head(cycle, 10)
    t.write(b"HEAD-BYTES")
    t.close()  # the app failed before its body: the client gets what was answered, then the close
    assert raw.writes == [b"HEAD-BYTES"] and raw.closed


@contextlib.contextmanager
def serving(app):
    """`app` served as bc-toolserve serves its apps (the guarded protocol), in a thread; yields the port."""
    sock = bind("127.0.0.1", 0, None)
    srv = uvicorn.Server(server_config(app, Limits(max_connections=64)))
    thread = threading.Thread(target=lambda: asyncio.run(srv.serve(sockets=[sock])), daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not srv.started and time.monotonic() < deadline:
        time.sleep(0.02)
    assert srv.started
    try:
        yield sock.getsockname()[1]
    finally:
        srv.should_exit = True
        thread.join(10)


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
    with serving(app) as port:
        yield port


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


def test_fast_calls_route_only_what_the_apps_auth_would_let_through():
    from bc_toolserve.server import FastCalls

    def scope(path="/count/execute", method="POST", headers=()):
        return {"method": method, "path": path, "headers": list(headers)}

    token = FastCalls(None, "secret-token-0123")
    good = [(b"host", b"evil.example"), (b"authorization", b"Bearer secret-token-0123")]
    assert token.route(scope(headers=good)) == ("count", "execute")
    assert token.route(scope(headers=[(b"authorization", b"Bearer secret-token-0124")])) is None
    assert token.route(scope(headers=[(b"authorization", b"Bearer ")])) is None
    assert token.route(scope(headers=[])) is None
    assert token.route(scope(method="GET", headers=good)) is None
    assert token.route(scope(path="/count/execute/", headers=good)) is None
    assert token.route(scope(path="/count/other", headers=good)) is None
    assert token.route(scope(path="//execute", headers=good)) is None
    tokenless = FastCalls(None, None)
    assert tokenless.route(scope(headers=[(b"host", b"127.0.0.1:8000")])) == ("count", "execute")
    assert tokenless.route(scope(headers=[(b"host", b"localhost")])) == ("count", "execute")
    assert tokenless.route(scope(headers=[(b"host", b"evil.example:8000")])) is None
    assert tokenless.route(scope(headers=[(b"host", b"127.0.0.1"), (b"origin", b"http://127.0.0.1")])) is None


def test_the_protocol_answers_vouched_calls_itself_and_the_rest_through_the_app():
    from starlette.responses import Response

    from bc_toolserve.protocol import json_response
    from bc_toolserve.server import FastCalls

    calls = []

    async def call(tool, op, scope, receive):
        if tool == "boom":
            raise RuntimeError("the handler failed")
        message = await receive()
        calls.append((tool, op, message["body"]))
        return json_response({"tool": tool, "op": op}, 201)

    async def app(scope, receive, send):  # what the app chain would answer: something else
        if scope["type"] == "http":
            await Response(b"app", 418)(scope, receive, send)
        elif scope["type"] == "lifespan":
            message = await receive()
            await send({"type": message["type"] + ".complete"})

    app.fast_calls = FastCalls(call, "secret-token-0123")
    app.applies_proxy_headers = True
    with serving(app) as port:
        body = b'{"a":1}'
        vouched = (b"POST /count/create HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer secret-token-0123\r\n"
                   b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        with request(port, vouched + vouched.replace(b"secret-token-0123", b"wrong")) as s:
            got = b""
            while not got.endswith(b"\r\n\r\napp"):
                chunk = s.recv(65536)
                assert chunk, got
                got += chunk
        first, second = got.split(b"HTTP/1.1 418")
        assert first.startswith(b"HTTP/1.1 201") and first.endswith(b'{"tool":"count","op":"create"}')
        assert second.endswith(b"content-length: 3\r\n\r\napp")
        assert calls == [("count", "create", body)]
        with request(port, vouched.replace(b"/count/", b"/boom/")) as s:  # a failing handler: uvicorn's 500
            failed = read_response(s)
            assert failed.startswith(b"HTTP/1.1 500") and failed.endswith(b"Internal Server Error")
