"""The master: wires worker admission, the worker registry, call routing and the status pages into one app.

Clients call `POST /{tool}/{create|execute|calc_reward|release}`. The create answer carries the worker URL,
so a client may call that worker directly afterwards; the master still answers every call (one pooled
session to the workers, no per-call client setup).

    admission.py    who may join: registration checks, address policy, proof of token, claimed instances
    membership.py   who is alive: heartbeats, sweeps, tools and aliases
    routing.py      where each instance lives: placement and lost instances
    tool_calls.py   the calls themselves: create, route, worker loss
    worker_link.py  the master's HTTP to its workers
    status.py       the dashboard, /health and /metrics
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from .admission import Admission, PolicyResolver
from .auth import BearerAuth
from .membership import Membership
from .metrics import Metrics
from .protocol import DEFAULT_BODY_TIMEOUT, DEFAULT_MAX_BODY, ApiError, json_response, read_json
from .routing import InstanceTable
from .server import make_app
from .status import StatusPages
from .tool_calls import CallRouter
from .worker_link import WorkerLink

log = logging.getLogger("bc_toolserve.master")


@dataclass
class MasterSettings:
    token: str | None = None
    heartbeat_interval: float = 2.0
    missed_heartbeats: int = 3
    timeout_per_query: float = 60.0
    max_body: int = DEFAULT_MAX_BODY
    proof_timeout: float = 5.0
    body_timeout: float = DEFAULT_BODY_TIMEOUT
    allow_worker_nets: list = field(default_factory=list)  # beyond loopback (ipaddress networks)
    expect_workers: int = 0  # /health answers 503 `starting` until this many workers are alive
    mcp_idle_ttl: float = 1800.0  # an MCP session idle this long ends and its instances are released
    mcp_max_sessions: int = 4096  # live MCP sessions in all; beyond, a new one is refused (503)
    mcp_max_sessions_per_client: int = 1024  # live MCP sessions of one client address (429 beyond)

    @property
    def dead_after(self) -> float:
        return self.heartbeat_interval * self.missed_heartbeats


class Master:
    """The master's parts and its routes; `app()` builds the Starlette application."""

    def __init__(self, settings: MasterSettings, tasks: dict[str, dict] | None = None):
        self.settings = settings
        self.membership = Membership(settings.heartbeat_interval, settings.missed_heartbeats)
        self.table = InstanceTable()
        self.metrics = Metrics()
        self.started_mono = time.monotonic()
        self._ready = False
        self.link = WorkerLink(settings.token, settings.timeout_per_query)
        self.admission = Admission(self.membership, self.table, self.link, settings.token,
                                   settings.allow_worker_nets, settings.proof_timeout)
        self.calls = CallRouter(self.membership, self.table, self.link, self.metrics, self.ready,
                                settings.max_body, settings.body_timeout)
        from .mcp_server import mcp_endpoint  # MCP clients reach the same tools at /mcp (the `mcp` extra)

        self.mcp = mcp_endpoint(self, tasks, settings.mcp_idle_ttl, settings.mcp_max_sessions,
                                settings.mcp_max_sessions_per_client)
        self.status = StatusPages(self.membership, self.table, self.metrics, self.mcp, self.ready,
                                  settings.expect_workers, settings.heartbeat_interval)

    # --- lifecycle -------------------------------------------------------------------------------------
    def make_connector(self) -> aiohttp.BaseConnector:
        return aiohttp.TCPConnector(limit=0, limit_per_host=64, keepalive_timeout=30,
                                    resolver=PolicyResolver(self.settings.allow_worker_nets))

    @contextlib.asynccontextmanager
    async def lifespan(self, app):
        # recovery is timed from here, when registrations can arrive: a slow start (the mcp import, a loaded
        # machine) must not use up the window in which a restarted master's workers report their instances
        self.started_mono = time.monotonic()
        await self.link.open(self.make_connector())
        sweeper = asyncio.create_task(self._sweep_forever())
        try:
            async with self.mcp.run():
                yield
        finally:
            sweeper.cancel()
            await self.link.close()

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(max(0.05, self.settings.heartbeat_interval / 2))
            for worker in self.membership.sweep():
                self.calls.declare_dead(worker, "missed heartbeats")

    def ready(self) -> bool:
        """Latched: `expect_workers` workers alive, or (without it) one heartbeat timeout after start, by which
        time the workers of a restarted master have registered again with their live instances."""
        if not self._ready:
            if self.settings.expect_workers:
                alive = sum(w.alive for w in self.membership.workers.values())
                self._ready = alive >= self.settings.expect_workers
            else:
                self._ready = time.monotonic() - self.started_mono > self.settings.dead_after
        return self._ready

    def app(self) -> BearerAuth:
        return make_app([
            Route("/", self.status.dashboard_page, methods=["GET"]),
            Route("/health", self.status.health, methods=["GET"]),
            Route("/metrics", self.status.metrics_page, methods=["GET"]),
            Route("/_workers/register", self.register, methods=["POST"]),
            Route("/_workers/heartbeat", self.heartbeat, methods=["POST"]),
            Route("/_workers/{worker_id}", self.worker_status, methods=["GET"]),
            Route("/mcp", self.mcp),  # an ASGI app: every method (POST, GET stream, DELETE)
            Route("/{tool}/{op}", self.tool_call, methods=["POST"]),
        ], self.lifespan, self.settings.token, self.metrics, tool_calls=self.calls.call)

    # --- workers ---------------------------------------------------------------------------------------
    async def register(self, request: Request) -> Response:
        body = await read_json(request, self.settings.max_body, self.settings.body_timeout)
        info, refused = await self.admission.admit(body)
        return json_response({"worker_id": info.worker_id, "heartbeat_interval_s": self.settings.heartbeat_interval,
                              "dead_after_s": self.settings.dead_after, "release": refused})

    async def worker_status(self, request: Request) -> Response:
        """`alive`, `dead` or `unknown`: RemoteTool asks while a direct call to that worker is slow."""
        worker = self.membership.workers.get(request.path_params["worker_id"])
        return json_response({"status": worker.status if worker is not None else "unknown"})

    async def heartbeat(self, request: Request) -> Response:
        body = await read_json(request, self.settings.max_body, self.settings.body_timeout)
        worker_id = body.get("worker_id")
        released = body.get("released") or []
        if not isinstance(released, list):
            raise ApiError(400, "bad_request", "released must be a list of instance ids")
        incarnations = body.get("incarnations")  # absent from an older worker: then the id alone decides
        if incarnations is None:
            incarnations = [None] * len(released)
        elif not isinstance(incarnations, list) or len(incarnations) != len(released):
            raise ApiError(400, "bad_request", "incarnations must be a list as long as released")
        info = self.membership.heartbeat(worker_id, body.get("calls")) if isinstance(worker_id, str) else None
        if info is None:
            late = self.membership.workers.get(worker_id) if isinstance(worker_id, str) else None
            if late is not None and late.alive:  # its heartbeat came after the deadline: dead, as if swept
                self.calls.declare_dead(late, "heartbeat too late")
            raise ApiError(404, "unknown_worker", "unknown or dead worker: register again")
        for instance_id, incarnation in zip(released, incarnations, strict=True):
            if isinstance(instance_id, str):
                self.table.drop_released(instance_id, worker_id, incarnation if isinstance(incarnation, str) else None)
        return json_response({"ok": True})

    # --- tool calls ------------------------------------------------------------------------------------
    async def tool_call(self, request: Request) -> Response:
        return await self.calls.call(request.path_params["tool"], request.path_params["op"], request.scope,
                                     request.receive)

    async def dispatch(self, tool: str, op: str, body: dict[str, Any]) -> dict[str, Any]:
        """One operation as `POST /{tool}/{op}` runs it, for in-process callers such as the MCP endpoint."""
        return await self.calls.dispatch(tool, op, body)
