"""Tool calls through the master: a create places the instance on the least-loaded live worker, every other
operation goes to the worker that holds it, and a worker's loss turns waiting calls into 503 and later ones into 410.
"""
from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Callable
from typing import Any

import aiohttp
import orjson
from starlette.responses import Response

from .forward import ConnectFailed
from .membership import Membership, WorkerInfo
from .metrics import Metrics
from .protocol import (
    OPERATIONS,
    TOOL_NAME,
    ApiError,
    JSONBytes,
    api_error_response,
    check_instance_id,
    json_response,
    parse_object,
    receive_body,
    retry_later,
    seed_call,
    seed_execute_reply,
)
from .routing import InstanceTable
from .worker_link import WorkerLink

log = logging.getLogger("bc_toolserve.master")


class WorkerUnreachable(Exception):
    """The worker did not answer at the transport level (refused, reset, gone)."""


class WorkerLost(Exception):
    """The worker was declared dead while the call waited for it (hung: SIGSTOP, frozen machine)."""


class CallRouter:
    """Places instances and routes the four operations; `ready` says whether the instance table is complete."""

    def __init__(self, membership: Membership, table: InstanceTable, link: WorkerLink, metrics: Metrics,
                 ready: Callable[[], bool], max_body: int, body_timeout: float):
        self.membership = membership
        self.table = table
        self.link = link
        self.metrics = metrics
        self.ready = ready
        self.max_body = max_body
        self.body_timeout = body_timeout
        self.inflight: dict[str, set[asyncio.Task]] = {}  # worker id -> handler tasks waiting on that worker
        self._abandoned: set[asyncio.Task] = set()

    def declare_dead(self, worker: WorkerInfo, why: str) -> None:
        """Its instances become lost (410) and calls waiting on it fail now with a retryable 503 `worker_lost`
        (repeated, they get the final 410), not at `timeout_per_query`."""
        self.membership.mark_dead(worker.worker_id)
        lost = self.table.lose_worker(worker.worker_id)
        waiting = self.inflight.pop(worker.worker_id, set())
        for task in waiting:
            self._abandoned.add(task)
            task.cancel()
        log.warning("worker %r %s: marked dead, %d instances lost, %d waiting calls failed", worker.worker_id,
                    why, lost, len(waiting))

    async def call(self, tool: str, op: str, scope, receive) -> Response:
        """One tool call, `POST /{tool}/{op}` (also the `ToolCalls` fast path)."""
        started = time.perf_counter()
        asked, tool = tool, self.membership.aliases.get(tool, tool)  # the seed's clients use the class name
        error_type = None
        try:
            if op not in OPERATIONS or not TOOL_NAME.fullmatch(tool):
                raise ApiError(404, "not_found", f"no route {scope['path']}")
            raw = await receive_body(scope, receive, self.max_body, self.body_timeout)
            if op == "create":
                response = await self._create(tool, raw)
            else:
                response = await self._route(tool, op, raw)
                if op == "execute" and response.status_code == 200 and seed_call(asked != tool, raw):
                    response = seed_execute_reply(response)
        except ApiError as exc:
            error_type = exc.type
            response = api_error_response(exc)
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
        if not candidates and not self.ready():
            raise retry_later("recovering", f"the tool server is starting: no worker serves {tool!r} yet")
        if not candidates and tool not in self.membership.known_tools():
            raise ApiError(404, "unknown_tool", f"no worker serves tool {tool!r}")
        body["instance_id"] = instance_id
        payload = orjson.dumps(body)
        while candidates:
            worker = self.table.choose(candidates)
            self.table.reserve(instance_id, tool, worker.worker_id)
            try:
                status, data = await self._forward(worker, f"/{tool}/create", payload)
            except (WorkerUnreachable, WorkerLost):
                self.table.drop(instance_id)
                self._worker_down(worker)
                candidates = [c for c in candidates if c is not worker and c.alive]
                continue
            except BaseException:
                self.table.drop(instance_id)
                raise
            if status != 200:
                self.table.drop(instance_id)
                return JSONBytes(data, status)
            self.table.confirm(instance_id, _incarnation(data))
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
            except (WorkerUnreachable, WorkerLost, ApiError):
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
            if not self.ready():  # a restarted master: its workers have not all reported their instances yet
                raise retry_later("recovering", "the tool server is recovering its instance table")
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
        except WorkerLost:
            if op == "release":
                return json_response({"released": False})
            raise retry_later("worker_lost", f"worker {worker.worker_id!r} was declared dead during the call; "
                                             f"instance {instance_id!r} is lost", after=0) from None
        if status == 404 and _error_type(data) == "unknown_instance":
            if _released(data):  # released on the worker directly (or reaped): unknown from now on, not lost
                self.table.drop(instance_id)
                return JSONBytes(data, status)
            # the worker restarted: the instance is gone for good
            self.table.mark_lost(instance_id, worker.worker_id)
            raise ApiError(410, "instance_lost", f"instance {instance_id!r} is no longer held by its worker")
        if op == "release" and status == 200:
            self.table.drop(instance_id)
        return JSONBytes(data, status)

    async def _forward(self, worker: WorkerInfo, path: str, payload: bytes) -> tuple[int, bytes]:
        task = asyncio.current_task()
        waiting = self.inflight.setdefault(worker.worker_id, set())
        waiting.add(task)
        try:
            return await self.link.post(worker, path, payload)
        except asyncio.CancelledError:
            if task not in self._abandoned:
                raise
            self._abandoned.discard(task)
            task.uncancel()
            raise WorkerLost() from None
        except asyncio.TimeoutError:
            raise ApiError(504, "timeout", f"worker {worker.worker_id!r} did not answer within "
                                           f"{self.link.timeout_per_query:g}s") from None
        except (aiohttp.ClientConnectorError, ConnectFailed):
            raise WorkerUnreachable() from None
        except (aiohttp.ClientError, OSError):  # Dropped too
            pass  # dropped mid-call: below, once this call no longer counts as waiting on the worker
        finally:
            waiting.discard(task)
        if await self.link.reachable(worker):
            raise ApiError(502, "worker_error", f"worker {worker.worker_id!r} dropped the connection")
        raise WorkerUnreachable()

    def _worker_down(self, worker: WorkerInfo) -> None:
        if worker.alive and self.membership.workers.get(worker.worker_id) is worker:
            self.declare_dead(worker, "unreachable")


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


def _incarnation(body: bytes) -> str | None:
    """The incarnation a worker's create answer names (None from an older worker)."""
    try:
        incarnation = orjson.loads(body).get("incarnation")
    except Exception:
        return None
    return incarnation if isinstance(incarnation, str) else None
