"""The master's pooled forwarder against small asyncio servers on loopback: reuse, stale connections, drops."""
from __future__ import annotations

import asyncio

import pytest

from bc_toolserve.forward import ConnectFailed, Dropped, Forwarder
from tests.toolserve.conftest import free_port

HEAD = b"POST /count/execute HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"


async def serve(reply, seen: list, close_after_answer: bool = False):
    """A server calling `reply(request_bytes) -> bytes | None` per request (None: close without answering;
    `close_after_answer`: close silently after each answer, as a worker's keep-alive timeout does)."""
    async def handle(reader, writer):
        seen.append(writer.get_extra_info("peername"))
        while True:
            head = await reader.readuntil(b"\r\n\r\n") if not reader.at_eof() else b""
            if not head:
                break
            length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
            body = await reader.readexactly(length)
            answer = reply(body)
            if answer is None:
                break
            writer.write(answer)
            await writer.drain()
            if close_after_answer or b"connection: close" in answer.lower():
                break
        writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1]


def ok(body: bytes, extra: bytes = b"") -> bytes:
    return b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: %d\r\n%s\r\n%s" % (
        len(body), extra, body)


def test_connections_are_reused_and_answers_parsed():
    async def run():
        seen = []
        server, port = await serve(lambda body: ok(b'{"echo": ' + body + b"}"), seen)
        forwarder = Forwarder()
        answers = [await forwarder.post("127.0.0.1", port, HEAD, b'{"i": %d}' % i) for i in range(5)]
        chunked_server, chunked_port = await serve(lambda body: b"HTTP/1.1 503 Busy\r\ntransfer-encoding: chunked\r\n"
                                                   b"\r\n4\r\n{\"a\"\r\n3\r\n: 1\r\n1\r\n}\r\n0\r\n\r\n", [])
        chunked = await forwarder.post("127.0.0.1", chunked_port, HEAD, b"{}")
        forwarder.close()
        server.close()
        chunked_server.close()
        return answers, len(seen), chunked

    answers, connections, chunked = asyncio.run(run())
    assert answers == [(200, b'{"echo": {"i": %d}}' % i) for i in range(5)]
    assert connections == 1
    assert chunked == (503, b'{"a": 1}')


def test_a_kept_alive_connection_closed_by_the_worker_is_replaced():
    async def run():
        seen = []
        server, port = await serve(lambda body: ok(b"{}"), seen, close_after_answer=True)
        forwarder = Forwarder()
        first = await forwarder.post("127.0.0.1", port, HEAD, b"{}")
        # the worker closed the pooled connection (keep-alive timeout, restart): seen or not yet, a new one
        second = await forwarder.post("127.0.0.1", port, HEAD, b"{}")
        server.close()
        return first, second, len(seen)

    first, second, connections = asyncio.run(run())
    assert first == second == (200, b"{}") and connections == 2


def test_a_drop_mid_request_and_a_refused_port_are_typed():
    async def run():
        server, port = await serve(lambda body: None, [])
        forwarder = Forwarder()
        with pytest.raises(Dropped):  # the request reached the worker: not repeated
            await forwarder.post("127.0.0.1", port, HEAD, b"{}")
        with pytest.raises(ConnectFailed):
            await forwarder.post("127.0.0.1", free_port(), HEAD, b"{}")
        server.close()

    asyncio.run(run())


def test_a_deadline_drops_the_connection_mid_request():
    async def run():
        server = await asyncio.start_server(lambda r, w: asyncio.sleep(10), "127.0.0.1", 0)  # never answers
        port = server.sockets[0].getsockname()[1]
        forwarder = Forwarder()
        with pytest.raises(TimeoutError):
            async with asyncio.timeout(0.2):
                await forwarder.post("127.0.0.1", port, HEAD, b"{}")
        idle = forwarder.idle.get(("127.0.0.1", port), [])
        server.close()
        return idle

    assert asyncio.run(run()) == []  # never back in the pool


def test_a_timed_call_on_a_pooled_connection_is_failed_by_the_sweep_and_the_pool_goes_on():
    """The usual call (a free slot, an idle connection) arms no timer of its own: the forwarder's sweep fails it
    with TimeoutError soon after its deadline, drops that connection, and the next call still gets through."""
    async def run():
        seen = []
        server, port = await serve(lambda body: ok(b"{}") if b"slow" not in body else None, seen)
        hung = await asyncio.start_server(lambda r, w: asyncio.sleep(10), "127.0.0.1", 0)  # reads, never answers
        hung_port = hung.sockets[0].getsockname()[1]
        forwarder = Forwarder()
        first = await forwarder.post("127.0.0.1", port, HEAD, b"{}", timeout=5.0)
        # pool a connection to the hung server by hand: the next call takes the fast path on it
        conn = await forwarder._connect("127.0.0.1", hung_port)
        forwarder.idle[("127.0.0.1", hung_port)].append(conn)
        loop = asyncio.get_running_loop()
        started = loop.time()
        with pytest.raises(TimeoutError):
            await forwarder.post("127.0.0.1", hung_port, HEAD, b"{}", timeout=0.3)
        waited = loop.time() - started
        after = await forwarder.post("127.0.0.1", port, HEAD, b"{}", timeout=5.0)
        state = (forwarder.idle.get(("127.0.0.1", hung_port)), dict(forwarder.deadlines), conn.closed)
        server.close()
        hung.close()
        return first, waited, after, state, len(seen)

    first, waited, after, (hung_pool, deadlines, closed), connections = asyncio.run(run())
    assert first == after == (200, b"{}") and connections == 1  # the good connection was reused throughout
    assert 0.3 <= waited < 0.8, waited  # the deadline plus at most timeout / 16 of sweep, not more
    assert hung_pool == [] and deadlines == {} and closed  # the timed-out connection is gone, nothing watched


def test_a_timed_call_on_a_stale_pooled_connection_goes_again_on_a_fresh_one():
    async def run():
        seen = []
        server, port = await serve(lambda body: ok(b"{}"), seen, close_after_answer=True)
        forwarder = Forwarder()
        first = await forwarder.post("127.0.0.1", port, HEAD, b"{}", timeout=5.0)
        second = await forwarder.post("127.0.0.1", port, HEAD, b"{}", timeout=5.0)  # pooled one was closed
        server.close()
        return first, second, len(seen), forwarder.deadlines

    first, second, connections, deadlines = asyncio.run(run())
    assert first == second == (200, b"{}") and connections == 2 and deadlines == {}
