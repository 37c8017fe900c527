"""A recording reverse proxy on loopback: sits between bc-eval and a real server and keeps every request and
answer body, so tests assert on what crossed the wire."""
from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Iterator
from typing import Any

import aiohttp
import orjson
from aiohttp import web

_HOP = {"host", "content-length", "transfer-encoding", "connection", "keep-alive"}


class RecordingProxy:
    """Forwards everything to `upstream` (http://127.0.0.1:PORT) and records `exchanges`."""

    def __init__(self, upstream: str):
        self.upstream = upstream.rstrip("/")
        self.exchanges: list[dict[str, Any]] = []
        self._lock = threading.Lock()

    def chat_requests(self) -> list[dict[str, Any]]:
        """The chat-completions request bodies, in the order they arrived."""
        with self._lock:
            return [e["request"] for e in self.exchanges if e["path"].endswith("/chat/completions")]

    def chat_exchanges(self) -> list[dict[str, Any]]:
        with self._lock:
            return [e for e in self.exchanges if e["path"].endswith("/chat/completions")]

    def clear(self) -> None:
        with self._lock:
            self.exchanges.clear()

    async def _forward(self, request: web.Request) -> web.Response:
        raw = await request.read()
        received_at = time.time()
        headers = {k: v for k, v in request.headers.items() if k.lower() not in _HOP}
        async with self._session.request(request.method, self.upstream + request.path_qs, data=raw or None,
                                         headers=headers, allow_redirects=False) as resp:
            body = await resp.read()
            status, ctype = resp.status, resp.headers.get("Content-Type", "application/json")
        with self._lock:  # times from the wall clock, comparable with other processes' (the trace test)
            self.exchanges.append({"method": request.method, "path": request.path, "headers": dict(request.headers),
                                   "request": _json(raw), "status": status, "response": _json(body),
                                   "received_at": received_at, "answered_at": time.time()})
        return web.Response(body=body, status=status, headers={"Content-Type": ctype})

    @contextlib.contextmanager
    def running(self) -> Iterator[str]:
        """Serve on a free loopback port in a thread; yields the base URL (`http://127.0.0.1:PORT/v1`)."""
        loop = asyncio.new_event_loop()
        started = threading.Event()
        box: dict[str, Any] = {}

        async def start() -> None:
            self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=600))
            app = web.Application(client_max_size=64 << 20)
            app.router.add_route("*", "/{tail:.*}", self._forward)
            runner = web.AppRunner(app, access_log=None)
            await runner.setup()
            site = web.TCPSite(runner, "127.0.0.1", 0)
            await site.start()
            box["runner"], box["port"] = runner, site._server.sockets[0].getsockname()[1]
            started.set()

        def serve() -> None:
            asyncio.set_event_loop(loop)
            loop.run_until_complete(start())
            loop.run_forever()

        thread = threading.Thread(target=serve, daemon=True, name="recording-proxy")
        thread.start()
        if not started.wait(30):
            raise RuntimeError("the recording proxy did not start")
        try:
            yield f"http://127.0.0.1:{box['port']}/v1"
        finally:
            async def stop() -> None:
                await box["runner"].cleanup()
                await self._session.close()

            asyncio.run_coroutine_threadsafe(stop(), loop).result(30)
            loop.call_soon_threadsafe(loop.stop)
            thread.join(30)


def _json(raw: bytes) -> Any:
    if not raw:
        return None
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        return raw.decode("utf-8", "replace")
