"""Connection limits for our uvicorn servers, so idle or slow clients cannot starve real calls and /health.

uvicorn bounds neither the time a client may take to send its request headers nor the number of connections:
~21,000 connections that never finished their headers once held every file descriptor of a master. Here:

- a request's headers must arrive within `header_timeout` of the connection (or of the first byte of the
  next request on a kept-alive one), and be at most `MAX_HEADER_BYTES`;
- at most `max_connections` overall and `max_per_client` per client address; when a cap is reached the oldest
  connection that is not in the middle of a request (idle, or still sending headers) is closed to make room,
  and only when every connection is busy is the new one answered 503 and closed.

Bodies are bounded by the handlers (`protocol.read_body`: 408 after `body_timeout`); the rest of a body that a
handler answered without reading (413, 401) must arrive within `header_timeout` of its first byte after the
answer (on a connection to be closed, the server lingers for it rather than resetting: the client reads the
answer), and other bytes that arrive after a response count as headers of the next request.

How answers are written (one write per answer, tool calls past the ASGI chain) is `answer_writes`'s.
"""
from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from bc_common.fdlimit import raise_open_file_limit

from .answer_writes import CycleTransport, answer

log = logging.getLogger("bc_toolserve.guard")
MAX_HEADER_BYTES = 64 * 1024
_BUSY_BODY = b'{"error":{"type":"busy","message":"too many connections: retry later","retryable":true}}'
_BUSY = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nretry-after: 1\r\n"
         b"connection: close\r\ncontent-length: %d\r\n\r\n%s" % (len(_BUSY_BODY), _BUSY_BODY))


@dataclass
class Limits:
    max_connections: int = 0  # 0: from the file-descriptor limit
    max_per_client: int = 8192
    header_timeout: float = 10.0

    def resolved(self) -> Limits:
        """Limits with `max_connections` filled in: the descriptor limit (raised to its hard maximum) less a
        reserve for the server's own outgoing connections and files."""
        if self.max_connections > 0:
            return self
        soft = raise_open_file_limit()
        return Limits(max(64, soft - max(256, soft // 10)), self.max_per_client, self.header_timeout)


class Guard:
    """The live connections of one server, oldest first, overall and by client address."""

    def __init__(self, limits: Limits):
        self.limits = limits.resolved()
        self.connections: dict[GuardedProtocol, None] = {}
        self.by_client: dict[str, dict[GuardedProtocol, None]] = {}
        self.refused = self.evicted = self.timed_out = 0
        self._last_warning = 0.0

    def admit(self, conn: GuardedProtocol) -> bool:
        peers = self.by_client.setdefault(conn.peer, {})
        if len(peers) >= self.limits.max_per_client and not self._evict(peers, "per-client cap"):
            return self._refuse(conn)
        if len(self.connections) >= self.limits.max_connections and not self._evict(self.connections, "cap"):
            return self._refuse(conn)
        self.connections[conn] = None
        peers[conn] = None
        return True

    def forget(self, conn: GuardedProtocol) -> None:
        self.connections.pop(conn, None)
        peers = self.by_client.get(conn.peer)
        if peers is not None:
            peers.pop(conn, None)
            if not peers:
                del self.by_client[conn.peer]

    def _evict(self, pool: dict, why: str) -> bool:
        for conn in pool:  # oldest first: a flood's connections are older than the call that needs room
            if conn.idle:
                self.forget(conn)
                conn.transport.close()
                self.evicted += 1
                self._warn(f"connection {why} reached: closed the oldest idle connection")
                return True
        return False

    def _refuse(self, conn: GuardedProtocol) -> bool:
        self.refused += 1
        self._warn("every connection is busy: refused a new one with 503")
        return False

    def _warn(self, message: str) -> None:
        now = time.monotonic()
        if now - self._last_warning > 10:
            self._last_warning = now
            log.warning("%s (so far: %d evicted, %d refused, %d header timeouts)", message, self.evicted,
                        self.refused, self.timed_out)


class GuardedProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a header deadline, a header size bound and admission by `guard`."""

    guard: Guard

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self.peer = self.client[0] if self.client else ""
        self.waiting_since: float | None = time.monotonic()  # a new connection owes its request headers
        self.header_bytes = 0
        self.lingering = False
        self._deadline = None
        if not self.guard.admit(self):
            transport.write(_BUSY)
            transport.close()
            return
        self._deadline = self.loop.call_later(self.guard.limits.header_timeout, self._check_deadline)

    def connection_lost(self, exc) -> None:
        self.guard.forget(self)
        if self._deadline is not None:
            self._deadline.cancel()
        super().connection_lost(exc)

    @property
    def idle(self) -> bool:
        """Not in the middle of a request: nothing lost by closing it."""
        return self.cycle is None or self.cycle.response_complete

    def data_received(self, data: bytes) -> None:
        # the rest of a body the handler answered without reading (413, 401): bounded in time, not in size
        draining = self.cycle is not None and self.cycle.response_complete and self.cycle.more_body
        if self.idle and self.waiting_since is None:  # the first bytes of the next request on this connection
            self.waiting_since = time.monotonic()
        super().data_received(data)
        if self.waiting_since is not None and self.idle and not draining and not self.transport.is_closing():
            self.header_bytes += len(data)  # still no complete headers after these bytes
            if self.header_bytes > MAX_HEADER_BYTES:
                self.send_400_response("Request headers too large.")

    def on_message_complete(self) -> None:
        super().on_message_complete()
        if self.lingering:
            self.transport.close()
        elif self.idle:  # a drained body: the connection is simply kept alive again
            self.waiting_since, self.header_bytes = None, 0

    def on_headers_complete(self) -> None:
        self.waiting_since, self.header_bytes = None, 0
        super().on_headers_complete()
        self.cycle.transport = CycleTransport(self.transport, self, self.cycle)

    def _start_asgi_task(self, cycle, app) -> None:
        """A tool call the app vouches for (`app.fast_calls.route`: its route, its auth) runs past the ASGI app
        chain and goes out in one write (`answer_writes.answer`); anything else runs as uvicorn runs it."""
        fast = getattr(app, "fast_calls", None)
        route = fast.route(cycle.scope) if fast is not None else None
        if route is None:
            return super()._start_asgi_task(cycle, app)
        task = self.loop.create_task(answer(cycle, fast.call, *route))
        task.add_done_callback(self.tasks.discard)
        self.tasks.add(task)

    def linger(self) -> None:
        """Answered early (401, 413) on a connection to close while the client still sends its body: send our
        FIN but read on until the body is in (within the header deadline), so the client reads the answer
        instead of a reset (nginx's lingering close)."""
        try:
            self.transport.write_eof()
        except (OSError, RuntimeError, NotImplementedError):
            self.transport.close()
            return
        self.lingering = True
        if self.waiting_since is None:
            self.waiting_since = time.monotonic()

    def _check_deadline(self) -> None:
        timeout = self.guard.limits.header_timeout
        if self.waiting_since is not None and self.idle:
            left = self.waiting_since + timeout - time.monotonic()
            if left <= 0:
                self.guard.timed_out += 1
                self.guard._warn("request headers not received in time: connection closed")
                self.transport.close()
                return
            self._deadline = self.loop.call_later(left, self._check_deadline)
        else:
            self._deadline = self.loop.call_later(timeout, self._check_deadline)


def guarded_protocol(limits: Limits) -> type[GuardedProtocol]:
    """A protocol class for `uvicorn.Config(http=...)` whose connections share one `Guard`."""
    return type("GuardedProtocol", (GuardedProtocol,), {"guard": Guard(limits)})
