"""How our uvicorn servers write answers (`guard.GuardedProtocol` uses both):

- `CycleTransport`, the transport a request's cycle writes through: the head of an answer of known length waits
  for its body, so a small answer is one write (one system call, one segment) instead of uvicorn's two;
- `answer`, a tool call that the app's own checks would let through (`server.FastCalls`) run and answered by the
  protocol itself, past the ASGI app chain (`run_asgi`, the auth middleware, `Response.__call__`, `send`).
"""
from __future__ import annotations

from uvicorn.protocols.http.httptools_impl import STATUS_LINE

__all__ = ["CycleTransport", "answer"]


async def answer(cycle, call, tool: str, op: str) -> None:
    """Run `call(tool, op, scope, receive)` for uvicorn's request `cycle` and write its answer as uvicorn would
    (default headers, `connection: close` when the connection ends, the cycle's completion), head and body in one
    write; an answer that is not plain bytes goes through the cycle's ASGI `send`. An error ends as in uvicorn's
    `run_asgi`: logged, a 500 when nothing was answered yet, else the connection closed."""
    try:
        response = await call(tool, op, cycle.scope, cycle.receive)
        body = getattr(response, "body", None)
        headers = response.raw_headers
        if (body is None or response.background is not None or response.status_code not in STATUS_LINE
                or not any(name == b"content-length" for name, _ in headers)
                or any(name == b"connection" for name, _ in headers)):
            await response(cycle.scope, cycle.receive, cycle.send)
            return
        if cycle.flow.write_paused and not cycle.disconnected:
            await cycle.flow.drain()
        if cycle.disconnected:
            return
        cycle.response_started = True
        head = [STATUS_LINE[response.status_code]]
        for name, value in (*cycle.default_headers, *headers):
            head += (name, b": ", value, b"\r\n")
        if not cycle.keep_alive:
            head.append(b"connection: close\r\n")
        head += (b"\r\n", body)
        cycle.transport.write(b"".join(head))
        cycle.response_complete = True
        cycle.message_event.set()
        if not cycle.keep_alive:
            cycle.transport.close()
        cycle.on_response()
    except Exception as exc:  # as uvicorn's run_asgi (a cancellation or an interrupt goes on to the exit path)
        cycle.logger.error("Exception in ASGI application\n", exc_info=exc)
        if not cycle.response_started:
            await cycle.send_500_response()
        else:
            cycle.transport.close()
    finally:
        cycle.on_response = lambda: None


class CycleTransport:
    """The transport a request's cycle sees. The head of an answer of known length waits for the body's first
    bytes, so that a small answer goes out in one write (uvicorn writes head and body apart: two system calls, and
    often two segments the client wakes up for); a HEAD answer, a chunked one and `100 Continue` go out as they
    come. `close()` sends a held head first, and lingers while the request's body is still arriving."""

    __slots__ = ("_transport", "_conn", "_cycle", "_head", "_answered")

    def __init__(self, transport, conn, cycle):
        self._transport, self._conn, self._cycle = transport, conn, cycle
        self._head: bytes | None = None
        self._answered = False  # the head went by (held or written)

    def write(self, data: bytes) -> None:
        head = self._head
        if head is not None:
            self._head = None
            self._transport.write(head + data)
            return
        cycle = self._cycle
        if not self._answered and cycle.response_started:  # the head: uvicorn writes it once the answer starts
            self._answered = True
            if (cycle.expected_content_length > 0 and not cycle.chunked_encoding
                    and cycle.scope["method"] != "HEAD" and not self._transport.is_closing()):
                self._head = data
                return
        self._transport.write(data)

    def close(self) -> None:
        if self._head is not None:
            head, self._head = self._head, None
            self._transport.write(head)
        cycle = self._conn.cycle
        if cycle is not None and cycle.response_complete and cycle.more_body and not self._transport.is_closing():
            self._conn.linger()
        else:
            self._transport.close()

    def __getattr__(self, name):
        return getattr(self._transport, name)
