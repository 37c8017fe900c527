"""The master's HTTP to its workers: one aiohttp session (address policy checked at every connect) and the pooled
forwarder for plain HTTP to IP addresses; posts are bounded by `timeout_per_query`."""
from __future__ import annotations

import asyncio
import ipaddress
from urllib.parse import urlsplit

import aiohttp
import orjson

from .forward import Forwarder
from .membership import WorkerInfo
from .protocol import FORWARDED


class WorkerLink:
    """Posts to workers for the master (tool calls, existence checks, the proof of token)."""

    def __init__(self, token: str | None, timeout_per_query: float):
        self.token = token
        self.timeout_per_query = timeout_per_query
        self.session: aiohttp.ClientSession | None = None
        self.forwarder = Forwarder()
        self._routes: dict[tuple[str, str], tuple[str, int, bytes] | None] = {}
        self._auth_headers = {"Content-Type": "application/json", FORWARDED: "1"}
        if token:
            self._auth_headers["Authorization"] = f"Bearer {token}"

    async def open(self, connector: aiohttp.BaseConnector) -> None:
        self.session = aiohttp.ClientSession(connector=connector, json_serialize=lambda o: orjson.dumps(o).decode())

    async def close(self) -> None:
        self.forwarder.close()
        if self.session is not None:
            await self.session.close()

    def _route_to(self, worker: WorkerInfo, path: str) -> tuple[str, int, bytes] | None:
        """(host, port, request head) for the pooled forwarder: http to an IP address; None otherwise (aiohttp)."""
        key = (worker.url, path)
        route = self._routes.get(key)
        if route is None and key not in self._routes:
            parts = urlsplit(worker.url)
            try:
                ipaddress.ip_address(parts.hostname or "")
            except ValueError:
                parts = None
            if parts is not None and parts.scheme == "http":
                head = (f"POST {path} HTTP/1.1\r\nHost: {parts.netloc}\r\nContent-Type: application/json\r\n"
                        f"{FORWARDED}: 1\r\n")
                if self.token:
                    head += f"Authorization: Bearer {self.token}\r\n"
                route = (parts.hostname, parts.port or 80, head.encode())
            if len(self._routes) > 100_000:
                self._routes.clear()
            self._routes[key] = route
        return route

    async def post(self, worker: WorkerInfo, path: str, payload: bytes) -> tuple[int, bytes]:
        """(status, body) of the worker's answer; transport errors and `asyncio.TimeoutError` propagate."""
        route = self._route_to(worker, path)
        if route is not None:
            return await self.forwarder.post(*route, payload, self.timeout_per_query)
        timeout = aiohttp.ClientTimeout(total=self.timeout_per_query)
        async with self.session.post(worker.url + path, data=payload, headers=self._auth_headers,
                                     timeout=timeout, allow_redirects=False) as resp:
            return resp.status, await resp.read()

    async def reachable(self, worker: WorkerInfo) -> bool:
        """Whether the worker's /health answers 200 within a second (after a dropped connection)."""
        try:
            async with self.session.get(worker.url + "/health", timeout=aiohttp.ClientTimeout(total=1.0),
                                        allow_redirects=False) as resp:
                return resp.status == 200
        except (aiohttp.ClientError, asyncio.TimeoutError, OSError):
            return False

    async def ask_proof(self, url: str, nonce: str, timeout: float) -> tuple[int, bytes]:
        """(status, first 4 KiB) of a would-be worker's answer to the proof challenge; no token is sent."""
        async with self.session.post(f"{url}/_proof", data=orjson.dumps({"nonce": nonce}),
                                     headers={"Content-Type": "application/json"}, allow_redirects=False,
                                     timeout=aiohttp.ClientTimeout(total=timeout)) as resp:
            return resp.status, await resp.content.read(4096)
