"""The master: registers workers (after a proof of token), places instances, routes calls, reports state.

Clients call `POST /{tool}/{create|execute|calc_reward|release}`. The create answer carries the worker URL,
so a client may call that worker directly afterwards; the master still answers every call (one pooled
session to the workers, no per-call client setup).
"""
from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import re
import time
import uuid
from dataclasses import dataclass
from typing import Any

import aiohttp
import orjson
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route

from . import dashboard
from .auth import BearerAuth, check_worker_url, new_nonce, proof_of
from .membership import Membership, WorkerInfo
from .metrics import Metrics
from .protocol import (
    DEFAULT_BODY_TIMEOUT,
    DEFAULT_MAX_BODY,
    OPERATIONS,
    ApiError,
    check_instance_id,
    error_response,
    json_response,
    parse_object,
    read_body,
    read_json,
)
from .routing import InstanceTable
from .server import make_app

log = logging.getLogger("bc_toolserve.master")
TOOL_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")  # always fullmatch: `$` lets a trailing newline in


@dataclass
class MasterSettings:
    token: str | None = None
    heartbeat_interval: float = 2.0
    missed_heartbeats: int = 3
    timeout_per_query: float = 60.0
    max_body: int = DEFAULT_MAX_BODY
    proof_timeout: float = 5.0
    body_timeout: float = DEFAULT_BODY_TIMEOUT
    mcp_idle_ttl: float = 1800.0  # an MCP session idle this long ends and its instances are released


class WorkerUnreachable(Exception):
    """The worker did not answer at the transport level (refused, reset, gone)."""


class Master:
    """State and handlers of the master; `app()` builds the Starlette application."""

    def __init__(self, settings: MasterSettings, tasks: dict[str, dict] | None = None):
        self.settings = settings
        self.membership = Membership(settings.heartbeat_interval, settings.missed_heartbeats)
        self.table = InstanceTable()
        self.metrics = Metrics()
        self.started = time.time()
        self.session: aiohttp.ClientSession | None = None
        self._auth_headers = {"Content-Type": "application/json"}
        if settings.token:
            self._auth_headers["Authorization"] = f"Bearer {settings.token}"
        from .mcp_server import mcp_endpoint  # MCP clients reach the same tools at /mcp (the `mcp` extra)

        self.mcp = mcp_endpoint(self, tasks, settings.mcp_idle_ttl)

    # --- lifecycle -------------------------------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def lifespan(self, app):
        connector = aiohttp.TCPConnector(limit=0, limit_per_host=64, keepalive_timeout=30)
        self.session = aiohttp.ClientSession(connector=connector, json_serialize=lambda o: orjson.dumps(o).decode())
        sweeper = asyncio.create_task(self._sweep_forever())
        try:
            async with self.mcp.run():
                yield
        finally:
            sweeper.cancel()
            await self.session.close()

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(max(0.05, self.settings.heartbeat_interval / 2))
            for worker in self.membership.sweep():
                lost = self.table.lose_worker(worker.worker_id)
                log.warning("worker %r missed heartbeats: marked dead, %d instances lost", worker.worker_id, lost)

    def app(self) -> BearerAuth:
        return make_app([
            Route("/", self.dashboard_page, methods=["GET"]),
            Route("/health", self.health, methods=["GET"]),
            Route("/metrics", self.metrics_page, methods=["GET"]),
            Route("/_workers/register", self.register, methods=["POST"]),
            Route("/_workers/heartbeat", self.heartbeat, methods=["POST"]),
            Route("/mcp", self.mcp),  # an ASGI app: every method (POST, GET stream, DELETE)
            Route("/{tool}/{op}", self.tool_call, methods=["POST"]),
        ], self.lifespan, self.settings.token, self.metrics)

    # --- observability ---------------------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        load = self.table.by_worker()
        workers = [w.view(load.get(w.worker_id, 0)) for w in self.membership.workers.values()]
        alive = sum(w.alive for w in self.membership.workers.values())
        return {"status": "ok", "role": "master", "uptime_s": round(time.time() - self.started, 1),
                "heartbeat_interval_s": self.settings.heartbeat_interval,
                "workers_alive": alive, "workers_total": len(workers), "workers": workers,
                "tools": self.membership.tool_view(),
                "instances": {"total": len(self.table.placements), "by_worker": load,
                              "lost": len(self.table.lost)},
                "mcp": self.mcp.state()}

    async def health(self, request: Request) -> Response:
        return json_response(self.state())

    async def dashboard_page(self, request: Request) -> Response:
        return HTMLResponse(dashboard.render(self.state()))

    async def metrics_page(self, request: Request) -> Response:
        load = self.table.by_worker()
        workers = self.membership.workers.values()
        gauges = {
            "instances": ("Live instances per worker.",
                          [({"worker": w.worker_id}, load.get(w.worker_id, 0)) for w in workers]),
            "worker_up": ("1 when the worker is alive.", [({"worker": w.worker_id}, int(w.alive)) for w in workers]),
            "worker_calls": ("Tool calls served per worker (reported by heartbeat).",
                             [({"worker": w.worker_id}, w.calls) for w in workers]),
        }
        return PlainTextResponse(self.metrics.render(gauges), media_type="text/plain; version=0.0.4")

    # --- membership ------------------------------------------------------------------------------------
    async def register(self, request: Request) -> Response:
        body = await read_json(request, self.settings.max_body, self.settings.body_timeout)
        worker_id = body.get("worker_id")
        if not isinstance(worker_id, str) or not 1 <= len(worker_id) <= 200:
            raise ApiError(400, "bad_request", "worker_id must be a string of 1-200 characters")
        try:
            url = check_worker_url(body.get("url"))
        except ValueError as exc:
            raise ApiError(400, "bad_request", f"invalid worker url: {exc}") from None
        tools = body.get("tools")
        if not isinstance(tools, list) or not tools or not all(isinstance(t, str) and TOOL_NAME.fullmatch(t) for t in tools):
            raise ApiError(400, "bad_request", "tools must be a non-empty list of tool names")
        instances = body.get("instances") or {}
        if not isinstance(instances, dict):
            raise ApiError(400, "bad_request", "instances must map instance ids to tool names")
        await self._check_proof(url)
        host = body.get("host") if isinstance(body.get("host"), str) else ""
        pid = body.get("pid") if isinstance(body.get("pid"), int) else None
        previous = self.membership.workers.get(worker_id)
        if previous is not None and previous.url != url:
            self.table.lose_worker(worker_id)
        info = self.membership.register(WorkerInfo(worker_id, url, sorted(set(tools)), host[:200], pid))
        live = {i: t for i, t in instances.items()
                if isinstance(i, str) and isinstance(t, str) and t in info.tools}
        self.table.adopt(worker_id, live)
        log.info("worker %r registered at %s with tools %s (%d live instances)", worker_id, url,
                 ", ".join(info.tools), len(live))
        return json_response({"worker_id": worker_id, "heartbeat_interval_s": self.settings.heartbeat_interval})

    async def _check_proof(self, url: str) -> None:
        """Talk to a registered URL only after it proves it holds the token (no SSRF via registration)."""
        nonce = new_nonce()
        try:
            async with self.session.post(f"{url}/_proof", data=orjson.dumps({"nonce": nonce}),
                                         headers={"Content-Type": "application/json"}, allow_redirects=False,
                                         timeout=aiohttp.ClientTimeout(total=self.settings.proof_timeout)) as resp:
                raw = await resp.content.read(4096)
                status = resp.status
        except (aiohttp.ClientError, asyncio.TimeoutError, OSError) as exc:
            raise ApiError(400, "proof_failed", f"cannot reach worker url for the proof: {type(exc).__name__}") from None
        try:
            answer = orjson.loads(raw).get("proof") if status == 200 else None
        except (orjson.JSONDecodeError, AttributeError):
            answer = None
        expected = proof_of(self.settings.token, nonce).encode()
        if not isinstance(answer, str) or not hmac.compare_digest(answer.encode(errors="replace"), expected):
            raise ApiError(403, "proof_failed", "the worker url did not prove it holds the token")

    async def heartbeat(self, request: Request) -> Response:
        body = await read_json(request, self.settings.max_body, self.settings.body_timeout)
        worker_id = body.get("worker_id")
        released = body.get("released") or []
        if not isinstance(released, list):
            raise ApiError(400, "bad_request", "released must be a list of instance ids")
        info = self.membership.heartbeat(worker_id, body.get("calls")) if isinstance(worker_id, str) else None
        if info is None:
            raise ApiError(404, "unknown_worker", "unknown or dead worker: register again")
        for instance_id in released:
            placement = self.table.get(instance_id) if isinstance(instance_id, str) else None
            if placement is not None and placement.worker_id == worker_id:
                self.table.drop(instance_id)
        return json_response({"ok": True})

    # --- tool calls ------------------------------------------------------------------------------------
    async def tool_call(self, request: Request) -> Response:
        started = time.perf_counter()
        op = request.path_params["op"]
        tool = request.path_params["tool"]
        error_type = None
        try:
            if op not in OPERATIONS or not TOOL_NAME.fullmatch(tool):
                raise ApiError(404, "not_found", f"no route {request.url.path}")
            raw = await read_body(request, self.settings.max_body, self.settings.body_timeout)
            if op == "create":
                response = await self._create(tool, raw)
            else:
                response = await self._route(tool, op, raw)
        except ApiError as exc:
            error_type = exc.type
            response = error_response(exc.status, exc.type, exc.message)
        if response.status_code >= 400 and error_type is None:
            error_type = _error_type(response.body)
        self.metrics.observe(op if op in OPERATIONS else "other", response.status_code,
                             time.perf_counter() - started, error_type)
        return response

    async def dispatch(self, tool: str, op: str, body: dict[str, Any]) -> dict[str, Any]:
        """One operation as `POST /{tool}/{op}` runs it (placement, routing, worker loss), for in-process callers
        such as the MCP endpoint: the answer as a dict; ApiError for what the HTTP route answers as an error."""
        started = time.perf_counter()
        try:
            raw = orjson.dumps(body)
            response = await (self._create(tool, raw) if op == "create" else self._route(tool, op, raw))
            answer = orjson.loads(response.body)
            if response.status_code != 200:
                error = answer.get("error") or {}
                raise ApiError(response.status_code, str(error.get("type", "unknown")), str(error.get("message", "")))
        except ApiError as exc:
            self.metrics.observe(op, exc.status, time.perf_counter() - started, exc.type)
            raise
        self.metrics.observe(op, 200, time.perf_counter() - started, None)
        return answer

    async def _create(self, tool: str, raw: bytes) -> Response:
        body = parse_object(raw)
        instance_id = check_instance_id(body.get("instance_id"), required=False) or uuid.uuid4().hex
        # loop: while we asked a worker, a concurrent create of the same id may have reserved it (one must win)
        while self.table.get(instance_id) is not None:
            if await self._still_exists(instance_id):
                raise ApiError(409, "conflict", f"instance {instance_id!r} already exists")
        candidates = self.membership.alive_with(tool)
        if not candidates and tool not in self.membership.known_tools():
            raise ApiError(404, "unknown_tool", f"no worker serves tool {tool!r}")
        body["instance_id"] = instance_id
        payload = orjson.dumps(body)
        while candidates:
            worker = self.table.choose(candidates)
            self.table.reserve(instance_id, tool, worker.worker_id)
            try:
                status, data = await self._forward(worker, f"/{tool}/create", payload)
            except WorkerUnreachable:
                self.table.drop(instance_id)
                self._worker_down(worker)
                candidates = [c for c in candidates if c is not worker and c.alive]
                continue
            except BaseException:
                self.table.drop(instance_id)
                raise
            if status != 200:
                self.table.drop(instance_id)
                return Response(data, status_code=status, media_type="application/json")
            self.table.confirm(instance_id)
            return json_response({"instance_id": instance_id, "worker_id": worker.worker_id,
                                  "worker_url": worker.url})
        raise ApiError(503, "no_worker", f"no live worker serves tool {tool!r}")

    async def _still_exists(self, instance_id: str) -> bool:
        """Clients release on the worker directly; before refusing a create, ask the worker (exact create-once)."""
        placement = self.table.get(instance_id)
        worker = self.membership.workers.get(placement.worker_id)
        if not placement.ready:
            return True
        if worker is not None and worker.alive:
            try:
                status, data = await self._forward(worker, "/_instances/exists", orjson.dumps({"instance_id": instance_id}))
                if status == 200 and not orjson.loads(data).get("exists"):
                    self._drop_if_same(instance_id, placement)
                    return False
                return True
            except (WorkerUnreachable, ApiError):
                pass
        self._drop_if_same(instance_id, placement)
        return False

    def _drop_if_same(self, instance_id: str, placement) -> None:
        """Drop `placement` unless a concurrent create replaced it meanwhile (that one is not ours to drop)."""
        if self.table.get(instance_id) is placement:
            self.table.drop(instance_id)

    async def _route(self, tool: str, op: str, raw: bytes) -> Response:
        body = parse_object(raw)
        instance_id = check_instance_id(body.get("instance_id"))
        placement = self.table.get(instance_id)
        if placement is None or placement.tool != tool:
            if op == "release":
                return json_response({"released": False})
            if self.table.is_lost(instance_id):
                raise ApiError(410, "instance_lost", f"instance {instance_id!r} was lost with its worker")
            raise ApiError(404, "unknown_instance", f"no live instance {instance_id!r} of tool {tool!r}")
        if not placement.ready:
            raise ApiError(409, "conflict", f"instance {instance_id!r} is still being created")
        worker = self.membership.workers.get(placement.worker_id)
        if worker is None or not worker.alive:
            self.table.mark_lost(instance_id, placement.worker_id)
            if op == "release":
                return json_response({"released": False})
            raise ApiError(410, "instance_lost", f"instance {instance_id!r} was lost with its worker")
        try:
            status, data = await self._forward(worker, f"/{tool}/{op}", raw)
        except WorkerUnreachable:
            self._worker_down(worker)
            if op == "release":
                return json_response({"released": False})
            raise ApiError(410, "instance_lost", f"instance {instance_id!r} was lost with its worker") from None
        if status == 404 and _error_type(data) == "unknown_instance":
            if _released(data):  # released on the worker directly (or reaped): unknown from now on, not lost
                self.table.drop(instance_id)
                return Response(data, status_code=status, media_type="application/json")
            # the worker restarted: the instance is gone for good
            self.table.mark_lost(instance_id, worker.worker_id)
            raise ApiError(410, "instance_lost", f"instance {instance_id!r} is no longer held by its worker")
        if op == "release" and status == 200:
            self.table.drop(instance_id)
        return Response(data, status_code=status, media_type="application/json")

    async def _forward(self, worker: WorkerInfo, path: str, payload: bytes) -> tuple[int, bytes]:
        timeout = aiohttp.ClientTimeout(total=self.settings.timeout_per_query)
        try:
            async with self.session.post(worker.url + path, data=payload, headers=self._auth_headers,
                                         timeout=timeout, allow_redirects=False) as resp:
                return resp.status, await resp.read()
        except asyncio.TimeoutError:
            raise ApiError(504, "timeout", f"worker {worker.worker_id!r} did not answer within "
                                           f"{self.settings.timeout_per_query:g}s") from None
        except aiohttp.ClientConnectorError:
            raise WorkerUnreachable() from None
        except (aiohttp.ClientError, OSError):
            if await self._reachable(worker):
                raise ApiError(502, "worker_error", f"worker {worker.worker_id!r} dropped the connection") from None
            raise WorkerUnreachable() from None

    async def _reachable(self, worker: WorkerInfo) -> bool:
        try:
            async with self.session.get(worker.url + "/health", timeout=aiohttp.ClientTimeout(total=1.0),
                                        allow_redirects=False) as resp:
                return resp.status == 200
        except (aiohttp.ClientError, asyncio.TimeoutError, OSError):
            return False

    def _worker_down(self, worker: WorkerInfo) -> None:
        if self.membership.mark_dead(worker.worker_id):
            lost = self.table.lose_worker(worker.worker_id)
            log.warning("worker %r unreachable: marked dead, %d instances lost", worker.worker_id, lost)


def _released(body: bytes) -> bool:
    try:
        return orjson.loads(body)["error"].get("released") is True
    except Exception:
        return False


def _error_type(body: bytes) -> str:
    try:
        return str(orjson.loads(body)["error"]["type"])
    except Exception:
        return "unknown"

