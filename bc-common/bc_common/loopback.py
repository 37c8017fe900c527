"""An ASGI app served on 127.0.0.1 in a background thread: scripted model servers, in-process policy servers.

    with serve_in_thread(app, what="the policy server") as port:
        url = f"http://127.0.0.1:{port}/v1"
"""
from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any


def listen(port: int = 0, backlog: int = 2048) -> socket.socket:
    """A listening TCP socket on 127.0.0.1 (`port` 0: a free one)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(backlog)
    return sock


@contextlib.contextmanager
def serve_in_thread(app: Any, *, port: int = 0, what: str = "the server", start_timeout: float = 10.0,
                    **config: Any) -> Iterator[int]:
    """Serve `app` with uvicorn in a daemon thread until the block ends; yields the port once it accepts.
    `config`: uvicorn.Config options over log_level "error", no access log, no lifespan."""
    import uvicorn

    sock = listen(port)
    options = {"log_level": "error", "access_log": False, "lifespan": "off", **config}
    server = uvicorn.Server(uvicorn.Config(app, **options))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + start_timeout
    while not server.started:  # readiness, not a fixed sleep
        if time.monotonic() > deadline or not thread.is_alive():
            sock.close()
            raise RuntimeError(f"{what} did not start within {start_timeout:g} s")
        time.sleep(0.01)
    try:
        yield sock.getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
