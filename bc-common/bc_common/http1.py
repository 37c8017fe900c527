"""A lean pooled keep-alive HTTP/1.1 client on httptools (uvicorn's parser), for hot paths to known plain-HTTP peers.

aiohttp's client costs ~180 us of CPU a call; this one writes each request in one go, parses the answer with one
parser callback per part and reuses idle connections. Two users: bc-toolserve's master forwarding to its workers
(small JSON answers with a Content-Length: the lean `Conn`) and bc-eval's model calls (`FullConn`: response headers,
chunked, compressed or close-delimited bodies, a body size cap). Everything else (https, proxies, host names that
need policy checks) stays with aiohttp; the callers decide.

    pool = Pool(per_host=64, full=True, max_body=32 << 20)
    answer = await pool.request("127.0.0.1", 8000, b"POST /v1/chat/completions HTTP/1.1\\r\\nHost: ...\\r\\n", body,
                                timeout=600)
    answer.status, answer.body, answer.headers["retry-after"]
"""
from __future__ import annotations

import asyncio
import zlib
from collections import defaultdict
from typing import NamedTuple

import httptools


class ConnectFailed(OSError):
    """No connection could be made: nothing was sent."""


class Dropped(OSError):
    """The connection broke before the whole answer arrived: the request may have been handled."""


class TooLarge(Exception):
    """The answer's body passes the pool's `max_body` (`size`: what its Content-Length announced, None when it was
    counted while arriving)."""

    def __init__(self, limit: int, size: int | None = None):
        super().__init__(f"the answer passes {limit} bytes")
        self.limit, self.size = limit, size


class BadEncoding(Exception):
    """The answer's Content-Encoding is one this client does not decode, or its compressed bytes are corrupt."""


class Answer(NamedTuple):
    status: int
    body: bytes
    headers: dict[str, str] | None  # lower-cased names (the last of repeated ones); None from the lean `Conn`


class Conn(asyncio.Protocol):
    """One keep-alive connection; answers must carry a Content-Length or be chunked (bc-toolserve's workers do)."""

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
            self.closed = True
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
            self.answer.set_result(Answer(self.parser.get_status_code(), b"".join(self.body), None))

    def _fail(self, exc: BaseException) -> None:
        if self.answer is not None and not self.answer.done():
            self.answer.set_exception(exc)

    def send(self, request: bytes) -> asyncio.Future:
        self.answer = asyncio.get_running_loop().create_future()
        self.body, self.received = [], False
        self.transport.write(request)
        return self.answer

    def expire(self) -> None:
        """Past the caller's deadline: the answer fails with TimeoutError and the connection (mid-request) closes."""
        self._fail(asyncio.TimeoutError())
        self.closed = True
        self.transport.close()


class FullConn(Conn):
    """A connection that also keeps the answer's headers, refuses a body past `max_body` as soon as it passes (an
    announced one before any of it is read), decodes gzip and deflate bodies (counting what they decode to), and
    takes a body without Content-Length or chunking as ending where the server closes the connection."""

    def __init__(self, max_body: int):
        super().__init__()
        self.max_body = max_body
        self.headers: dict[str, str] = {}
        self.size = 0
        self.framed = True  # the parser knows where the body ends (Content-Length, chunked, or no body)
        self.decoder = None

    def send(self, request: bytes) -> asyncio.Future:
        self.headers, self.size, self.framed, self.decoder = {}, 0, True, None
        return super().send(request)

    def on_header(self, name: bytes, value: bytes) -> None:
        self.headers[name.decode("latin-1").lower()] = value.decode("latin-1")

    def on_headers_complete(self) -> None:
        headers, status = self.headers, self.parser.get_status_code()
        length = headers.get("content-length")
        chunked = "chunked" in headers.get("transfer-encoding", "").lower()
        self.framed = length is not None or chunked or status < 200 or status in (204, 304)
        if length is not None and not chunked and length.strip().isdigit() and int(length) > self.max_body:
            return self._refuse(TooLarge(self.max_body, int(length)))
        encoding = headers.get("content-encoding", "identity").strip().lower()
        if encoding in ("gzip", "x-gzip"):
            self.decoder = zlib.decompressobj(16 + zlib.MAX_WBITS)
        elif encoding == "deflate":
            self.decoder = _Deflate()
        elif encoding not in ("identity", ""):
            self._refuse(BadEncoding(f"the answer's Content-Encoding {encoding!r} is not one this client decodes "
                                     "(gzip, deflate, identity)"))

    def on_body(self, body: bytes) -> None:
        if self.answer is None or self.answer.done():
            return
        if self.decoder is not None:
            try:
                body = self.decoder.decompress(body, self.max_body - self.size + 1)
            except zlib.error as exc:
                return self._refuse(BadEncoding(f"the answer's compressed body is corrupt: {exc}"))
            if self.decoder.unconsumed_tail:
                return self._refuse(TooLarge(self.max_body))
        self.size += len(body)
        if self.size > self.max_body:
            return self._refuse(TooLarge(self.max_body))
        self.body.append(body)

    def on_message_complete(self) -> None:
        status = self.parser.get_status_code()
        if 100 <= status < 200 and status != 101:  # an interim answer (100 Continue): the real one follows
            self.body, self.headers, self.size, self.decoder = [], {}, 0, None
            return
        if self.decoder is not None and self.answer is not None and not self.answer.done():
            decoder, self.decoder = self.decoder, None
            try:
                self.on_body(decoder.flush())
            except zlib.error as exc:
                self._refuse(BadEncoding(f"the answer's compressed body is corrupt: {exc}"))
        if self.answer is not None and not self.answer.done():
            self.answer.set_result(Answer(status, b"".join(self.body), self.headers))
        if not self.parser.should_keep_alive():
            self.closed = True
            self.transport.close()

    def connection_lost(self, exc) -> None:
        if exc is None and not self.framed and self.answer is not None and not self.answer.done():
            self.framed = True  # the server's close ends the body (read until EOF)
            self.on_message_complete()
        super().connection_lost(exc)

    def _refuse(self, exc: Exception) -> None:
        self._fail(exc)
        self.closed = True
        self.transport.close()


class _Deflate:
    """`Content-Encoding: deflate` as servers send it: zlib-wrapped (RFC 9110) or, from some, raw deflate."""

    def __init__(self):
        self.inner = None
        self.unconsumed_tail = b""

    def decompress(self, data: bytes, max_length: int) -> bytes:
        if self.inner is None:
            if not data:
                return b""
            zlib_header = (data[0] & 0x0F) == 8 and len(data) >= 2 and (data[0] << 8 | data[1]) % 31 == 0
            self.inner = zlib.decompressobj(zlib.MAX_WBITS if zlib_header else -zlib.MAX_WBITS)
        out = self.inner.decompress(data, max_length)
        self.unconsumed_tail = self.inner.unconsumed_tail
        return out

    def flush(self) -> bytes:
        return self.inner.flush() if self.inner is not None else b""


class Pool:
    """Requests to `(host, port)` over pooled connections: at most `per_host` at once per peer, the rest wait.
    `full`: connections are `FullConn(max_body)` (headers, caps, any body framing); else the lean `Conn`.

    A call bounded by `timeout` that finds a free slot and an idle connection (the usual case) arms no timer of
    its own (uvloop's timers cost ~5% of bc-toolserve's master's CPU per call): one sweep timer, armed while such
    calls are in flight, fails those past their deadline within `timeout / 16` (at most 0.5 s) of it. Other calls
    (waiting for a slot, connecting) run under `asyncio.timeout`. A kept-alive connection that the peer closed just
    as the request was written (nothing received) is retried once on a fresh connection."""

    def __init__(self, per_host: int = 128, *, full: bool = False, max_body: int = 1 << 62):
        self.per_host = per_host
        self.factory = (lambda: FullConn(max_body)) if full else Conn
        self.idle: dict[tuple[str, int], list[Conn]] = defaultdict(list)
        self.slots: dict[tuple[str, int], asyncio.Semaphore] = {}
        self.deadlines: dict[Conn, float] = {}  # connections in a swept call -> when the call times out
        self._sweep_at: float | None = None  # when the armed sweep runs (None: not armed)

    async def post(self, host: str, port: int, head: bytes, payload: bytes,
                   timeout: float | None = None) -> tuple[int, bytes]:
        """(status, body) of `request`."""
        answer = await self.request(host, port, head, payload, timeout)
        return answer.status, answer.body

    async def request(self, host: str, port: int, head: bytes, payload: bytes | None,
                      timeout: float | None = None) -> Answer:
        """`head` is the request line and headers without Content-Length (added for a `payload`, None: none sent);
        returns the Answer within `timeout` seconds (None: no bound). Raises ConnectFailed, Dropped, TooLarge,
        BadEncoding (full connections), asyncio.TimeoutError (past `timeout`), or what the caller's own deadline or
        cancellation raises."""
        key = (host, port)
        slots = self.slots.get(key) or self.slots.setdefault(key, asyncio.Semaphore(self.per_host))
        request = head + b"\r\n" if payload is None else b"%sContent-Length: %d\r\n\r\n%s" % (head, len(payload),
                                                                                           payload)
        if timeout is not None and not slots.locked():
            conn = self._idle_conn(key)
            if conn is not None:  # no wait for a slot or a connection: only the answer is timed, by the sweep
                async with slots:  # free: acquired without waiting
                    try:
                        return await self._exchange(key, conn, request, timeout)
                    except Dropped:
                        if conn.received:
                            raise
                # the peer closed that kept-alive connection just as we wrote: nothing was handled, go again
                return await self._request(key, slots, request, timeout, (False,))
        return await self._request(key, slots, request, timeout)

    async def _request(self, key, slots: asyncio.Semaphore, request: bytes, timeout: float | None,
                       attempts: tuple[bool, ...] = (True, False)) -> Answer:
        if timeout is not None:
            async with asyncio.timeout(timeout):
                return await self._request(key, slots, request, None, attempts)
        async with slots:
            for reused in attempts:
                conn = self._idle_conn(key) if reused else await self._connect(*key)
                if conn is None:
                    continue
                try:
                    return await self._exchange(key, conn, request, None)
                except Dropped:
                    # a kept-alive connection the peer closed just as we wrote: nothing was handled, go again
                    if reused and not conn.received:
                        continue
                    raise
        raise Dropped("no connection")  # unreachable: the fresh connection either answers or raises

    async def _exchange(self, key, conn: Conn, request: bytes, timeout: float | None) -> Answer:
        """One request on `conn`; the connection goes back to the pool when it stays usable."""
        answer = conn.send(request)
        if timeout is not None:
            self._watch(conn, timeout)
        try:
            result = await answer
        except (Dropped, TooLarge, BadEncoding):
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

    def _watch(self, conn: Conn, timeout: float) -> None:
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

    def _idle_conn(self, key) -> Conn | None:
        pool = self.idle.get(key)
        while pool:
            conn = pool.pop()
            if not conn.closed:
                return conn
        return None

    async def _connect(self, host: str, port: int) -> Conn:
        try:
            _, conn = await asyncio.get_running_loop().create_connection(self.factory, host, port)
        except OSError as exc:
            raise ConnectFailed(f"cannot connect to {host}:{port}: {exc}") from None
        return conn

    def close(self) -> None:
        for pool in self.idle.values():
            for conn in pool:
                conn.transport.close()
        self.idle.clear()
