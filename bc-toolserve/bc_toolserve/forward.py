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

    def expire(self) -> None:
        """Past the caller's deadline: the answer fails with TimeoutError and the connection (mid-request) closes."""
        if self.answer is not None and not self.answer.done():
            self.answer.set_exception(asyncio.TimeoutError())
        self.closed = True
        self.transport.close()


class Forwarder:
    """POST to `(host, port)` over pooled connections: at most `per_host` at once per worker, the rest wait.

    A call bounded by `timeout` that finds a free slot and an idle connection (the usual case) arms no timer of
    its own (uvloop's timers cost ~5% of the master's CPU per call): one sweep timer, armed while such calls are
    in flight, fails those past their deadline within `timeout / 16` (at most 0.5 s) of it. Other calls (waiting
    for a slot, connecting) run under `asyncio.timeout`."""

    def __init__(self, per_host: int = 128):
        self.per_host = per_host
        self.idle: dict[tuple[str, int], list[_Conn]] = defaultdict(list)
        self.slots: dict[tuple[str, int], asyncio.Semaphore] = {}
        self.deadlines: dict[_Conn, float] = {}  # connections in a swept call -> when the call times out
        self._sweep_at: float | None = None  # when the armed sweep runs (None: not armed)

    async def post(self, host: str, port: int, head: bytes, payload: bytes,
                   timeout: float | None = None) -> tuple[int, bytes]:
        """`head` is the request line and headers without Content-Length; returns (status, body) within `timeout`
        seconds (None: no bound). Raises ConnectFailed, Dropped, asyncio.TimeoutError (past `timeout`), or what
        the caller's own deadline or cancellation raises."""
        key = (host, port)
        slots = self.slots.get(key) or self.slots.setdefault(key, asyncio.Semaphore(self.per_host))
        request = b"%sContent-Length: %d\r\n\r\n%s" % (head, len(payload), payload)
        if timeout is not None and not slots.locked():
            conn = self._idle_conn(key)
            if conn is not None:  # no wait for a slot or a connection: only the answer is timed, by the sweep
                async with slots:  # free: acquired without waiting
                    try:
                        return await self._exchange(key, conn, request, timeout)
                    except Dropped:
                        if conn.received:
                            raise
                # the worker closed that kept-alive connection just as we wrote: nothing was handled, go again
                return await self._post(key, slots, request, timeout, (False,))
        return await self._post(key, slots, request, timeout)

    async def _post(self, key, slots: asyncio.Semaphore, request: bytes, timeout: float | None,
                    attempts: tuple[bool, ...] = (True, False)) -> tuple[int, bytes]:
        if timeout is not None:
            async with asyncio.timeout(timeout):
                return await self._post(key, slots, request, None, attempts)
        async with slots:
            for reused in attempts:
                conn = self._idle_conn(key) if reused else await self._connect(*key)
                if conn is None:
                    continue
                try:
                    return await self._exchange(key, conn, request, None)
                except Dropped:
                    # a kept-alive connection the worker closed just as we wrote: nothing was handled, go again
                    if reused and not conn.received:
                        continue
                    raise
        raise Dropped("no connection")  # unreachable: the fresh connection either answers or raises

    async def _exchange(self, key, conn: _Conn, request: bytes, timeout: float | None) -> tuple[int, bytes]:
        """One request on `conn`; the connection goes back to the pool when it stays usable."""
        answer = conn.send(request)
        if timeout is not None:
            self._watch(conn, timeout)
        try:
            result = await answer
        except Dropped:
            raise
        except BaseException:  # the deadline, a cancellation: the connection is mid-request, drop it
            conn.closed = True
            conn.transport.close()
            raise
        finally:
            if timeout is not None:
                self.deadlines.pop(conn, None)
        if not conn.closed:
            self.idle[key].append(conn)
        return result

    def _watch(self, conn: _Conn, timeout: float) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        self.deadlines[conn] = deadline
        step = min(0.5, timeout / 16)
        if self._sweep_at is None or self._sweep_at > deadline + step:
            self._arm(loop, deadline + step / 2)

    def _arm(self, loop, when: float) -> None:
        self._sweep_at = when
        loop.call_at(when, self._sweep, when)

    def _sweep(self, armed_for: float) -> None:
        if self._sweep_at != armed_for:  # superseded by an earlier sweep
            return
        self._sweep_at = None
        if not self.deadlines:
            return
        loop = asyncio.get_running_loop()
        now = loop.time()
        for conn in [c for c, deadline in self.deadlines.items() if deadline <= now]:
            del self.deadlines[conn]
            conn.expire()
        if self.deadlines:
            first = min(self.deadlines.values())
            self._arm(loop, first + min(0.5, max(0.0, first - now) / 16))

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
