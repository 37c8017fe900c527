"""Run an ASGI app under uvicorn on a socket we bind ourselves (so port 0 works and the port is known early)."""
from __future__ import annotations

import asyncio
import gc
import logging
import os
import socket
import sys

import uvicorn
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from .auth import BearerAuth, RebindingGuard, check_bind, passes
from .guard import Limits, guarded_protocol
from .protocol import OPERATIONS


def setup_logging(level: str = "INFO") -> None:
    logging.basicConfig(stream=sys.stderr, level=getattr(logging, level.upper(), logging.INFO),
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")


def bind(host: str, port: int, token: str | None) -> socket.socket:
    """A listening socket on host:port (port 0: a free one), after the no-token-no-public-bind check."""
    check_bind(host, token)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise OSError(f"cannot bind {host}:{port}: {exc.strerror or exc}") from None
    sock.listen(2048)  # connections queue until uvicorn accepts, so peers may call us during startup
    sock.set_inheritable(True)
    return sock


def freeze_heap() -> None:
    """Keep what start-up built (modules, the app: a large heap once the MCP SDK and pydantic are in) out of the
    cycle collector's full passes, which the allocations of new connections set off: py-spy put ~30% of the
    master's CPU in a burst of new connections (bench/toolserve.py) inside such passes. Call once, before serving."""
    gc.collect()
    gc.freeze()


def server_config(app, limits: Limits | None = None) -> uvicorn.Config:
    """uvicorn's settings for our servers. An app from `make_app` applies uvicorn's proxy-header middleware
    itself, past its tool-call fast path (tool calls read neither the client address nor the scheme); uvicorn
    wraps any other app in it as usual."""
    return uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on", timeout_keep_alive=75,
                          timeout_graceful_shutdown=5, backlog=2048, http=guarded_protocol(limits or Limits()),
                          proxy_headers=not getattr(app, "applies_proxy_headers", False))


def serve(app, sock: socket.socket, limits: Limits | None = None) -> None:
    """Serve until SIGINT/SIGTERM (uvicorn handles both and shuts down gracefully), within connection `limits`."""
    server = uvicorn.Server(server_config(app, limits)).serve(sockets=[sock])
    try:  # uvloop (with httptools, chosen by uvicorn itself) roughly halves the per-request server CPU
        import uvloop
    except ImportError:
        asyncio.run(server)
    else:
        uvloop.run(server)


def url_of(sock: socket.socket, host: str) -> str:
    port = sock.getsockname()[1]
    shown = host if host not in ("0.0.0.0", "::", "") else socket.gethostbyname(socket.gethostname())
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}"


class ToolCalls:
    """ASGI: `POST /{tool}/{op}` goes straight to `call(tool, op, scope, receive) -> Response`, past Starlette's
    middleware stack and router: the hot path, where they cost about a quarter of the master's CPU (py-spy under
    bench/toolserve.py). Everything else (other methods, paths, a trailing slash) goes to `app`, whose
    `/{tool}/{op}` route ends in the same `call`."""

    def __init__(self, app, call):
        self.app = app
        self.call = call

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope["method"] == "POST":
            parts = scope["path"].split("/")
            if len(parts) == 3 and parts[1] and parts[2] in OPERATIONS:
                response = await self.call(parts[1], parts[2], scope, receive)
                return await response(scope, receive, send)
        await self.app(scope, receive, send)


class FastCalls:
    """What a server's protocol (`guard.GuardedProtocol`) needs to answer a tool call without the ASGI app chain:
    `route(scope)` is (tool, op) for `POST /{tool}/{op}` when the request passes what the app's auth would check
    (the bearer token; without a token, a loopback Host and no Origin), else None (the app answers it, denials
    and all); `call` is the `ToolCalls` handler."""

    def __init__(self, call, token: str | None):
        self.call = call
        self.expected = f"Bearer {token}".encode() if token else None

    def route(self, scope) -> tuple[str, str] | None:
        if scope["method"] != "POST":
            return None
        parts = scope["path"].split("/")
        if len(parts) != 3 or not parts[1] or parts[2] not in OPERATIONS:
            return None
        return (parts[1], parts[2]) if passes(scope["headers"], self.expected) else None


def make_app(routes: list, lifespan, token: str | None, metrics, tool_calls=None) -> BearerAuth:
    """A Starlette app with our JSON error handlers, no slash redirects, behind bearer-token auth (denials are
    counted in `metrics`); with `tool_calls`, tool calls take the `ToolCalls` fast path. Master and worker are
    built the same way."""
    from starlette.applications import Starlette
    from starlette.exceptions import HTTPException

    from .protocol import ApiError, api_error_handler, http_error_handler

    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={ApiError: api_error_handler, HTTPException: http_error_handler})
    app.router.redirect_slashes = False  # a 307 to a URL built from the Host header helps nobody
    # what uvicorn does with `proxy_headers` (on by default), here so that tool calls skip it (`server_config`)
    app = ProxyHeadersMiddleware(app, trusted_hosts=os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1"))
    if tool_calls is not None:
        app = ToolCalls(app, tool_calls)
    def on_deny(status: int, kind: str) -> None:
        metrics.observe("auth", status, 0.0, kind)

    if not token:  # loopback only, but a rebinding web page must not reach any route
        app = BearerAuth(RebindingGuard(app, on_deny), token, on_deny=on_deny)
    else:
        app = BearerAuth(app, token, on_deny=on_deny)
    app.applies_proxy_headers = True
    app.fast_calls = FastCalls(tool_calls, token) if tool_calls is not None else None
    return app
