"""The master's hop to its workers: pooled keep-alive HTTP/1.1 POSTs, parsed by httptools (uvicorn's parser).

Forwarding is the master's hot path, and aiohttp's client spent about as much of the master's CPU on it as the
whole server side of the call (py-spy under bench/toolserve.py). A worker answers small JSON bodies with a
Content-Length over plain HTTP to an address the master checked at registration, so this client does only that:
one write per request, one parser callback per part, idle connections reused. Workers with a host name or
https keep going through aiohttp (`WorkerLink.post` decides).
"""
from __future__ import annotations

import asyncio
from collections import defaultdict

import httptools


class ConnectFailed(OSError):
    """No connection could be made: nothing was sent."""


class Dropped(OSError):
    """The connection broke before the whole answer arrived: the request may have been handled."""


class _Conn(asyncio.Protocol):
    def __init__(self):
        self.transport: asyncio.Transport | None = None
        self.parser = httptools.HttpResponseParser(self)
        self.answer: asyncio.Future | None = None
        self.body: list[bytes] = []
        self.closed = False
        self.received = False

    def connection_made(self, transport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.received = True
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserError as exc:
            self._fail(Dropped(f"unparsable answer: {exc}"))
            self.transport.close()

    def connection_lost(self, exc) -> None:
        self.closed = True
        self._fail(Dropped("connection closed before the whole answer"))

    def on_body(self, body: bytes) -> None:
        self.body.append(body)

    def on_message_complete(self) -> None:
        if not self.parser.should_keep_alive():
            self.closed = True
            self.transport.close()
        if self.answer is not None and not self.answer.done():
            self.answer.set_result((self.parser.get_status_code(), b"".join(self.body)))

    def _fail(self, exc: Exception) -> None:
        if self.answer is not None and not self.answer.done():
            self.answer.set_exception(exc)

    def send(self, request: bytes) -> asyncio.Future:
        self.answer = asyncio.get_running_loop().create_future()
        self.body, self.received = [], False
        self.transport.write(request)
        return self.answer


class Forwarder:
    """POST to `(host, port)` over pooled connections: at most `per_host` at once per worker, the rest wait."""

    def __init__(self, per_host: int = 128):
        self.per_host = per_host
        self.idle: dict[tuple[str, int], list[_Conn]] = defaultdict(list)
        self.slots: dict[tuple[str, int], asyncio.Semaphore] = {}

    async def post(self, host: str, port: int, head: bytes, payload: bytes) -> tuple[int, bytes]:
        """`head` is the request line and headers without Content-Length; returns (status, body). Raises
        ConnectFailed, Dropped, or asyncio.TimeoutError / CancelledError from the caller's own deadline."""
        key = (host, port)
        slots = self.slots.get(key) or self.slots.setdefault(key, asyncio.Semaphore(self.per_host))
        request = b"%sContent-Length: %d\r\n\r\n%s" % (head, len(payload), payload)
        async with slots:
            for reused in (True, False):
                conn = self._idle_conn(key) if reused else await self._connect(host, port)
                if conn is None:
                    continue
                try:
                    answer = await conn.send(request)
                except Dropped:
                    # a kept-alive connection the worker closed just as we wrote: nothing was handled, go again
                    if reused and not conn.received:
                        continue
                    raise
                except BaseException:  # our deadline, a cancellation: the connection is mid-request, drop it
                    conn.closed = True
                    conn.transport.close()
                    raise
                if not conn.closed:
                    self.idle[key].append(conn)
                return answer
        raise Dropped("no connection")  # unreachable: the fresh connection either answers or raises

    def _idle_conn(self, key) -> _Conn | None:
        pool = self.idle.get(key)
        while pool:
            conn = pool.pop()
            if not conn.closed:
                return conn
        return None

    async def _connect(self, host: str, port: int) -> _Conn:
        try:
            _, conn = await asyncio.get_running_loop().create_connection(_Conn, host, port)
        except OSError as exc:
            raise ConnectFailed(str(exc)) from None
        return conn

    def close(self) -> None:
        for pool in self.idle.values():
            for conn in pool:
                conn.transport.close()
        self.idle.clear()
