"""A worker: holds tool instances and serves `POST /{tool}/{op}` for the master or, directly, for clients.

Instances idle longer than the TTL are released by a reaper; the master learns of it with the next heartbeat.
"""
from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from bc_common.bootcamp import Tool
from bc_common.errors import ToolError
from bc_common.tool_runtime import ToolRuntime

from .auth import BearerAuth, proof_of
from .metrics import Metrics
from .protocol import (
    DEFAULT_BODY_TIMEOUT,
    DEFAULT_MAX_BODY,
    OPERATIONS,
    ApiError,
    api_error_response,
    check_instance_id,
    create_kwargs,
    execute_parameters,
    json_response,
    parse_object,
    read_json,
    receive_body,
    retry_later,
)
from .server import make_app

log = logging.getLogger("bc_toolserve.worker")


@dataclass
class WorkerSettings:
    worker_id: str
    token: str | None = None
    instance_ttl: float = 3600.0
    max_body: int = DEFAULT_MAX_BODY
    body_timeout: float = DEFAULT_BODY_TIMEOUT


@dataclass
class Instance:
    tool: str
    tool_instance_id: str  # the id the tool returned from create (usually the same)
    incarnation: str = ""  # this create of the id, unique across workers and restarts (an id can be created again)
    last_used: float = field(default_factory=time.monotonic)


def _forwarded(scope) -> bool:
    return any(key == b"x-bc-forwarded" for key, _ in scope["headers"])


def class_aliases(tools: dict[str, Tool]) -> dict[str, str]:
    """Class name -> tool name (the seed's clients address a tool by its class, `POST /ArithmeticTool/create`);
    a class serving several tools, or named like another tool, gives no alias."""
    by_class: dict[str, list[str]] = {}
    for name, tool in tools.items():
        by_class.setdefault(type(tool).__name__, []).append(name)
    return {cls: names[0] for cls, names in sorted(by_class.items()) if len(names) == 1 and cls not in tools}


class Worker:
    """Tool objects by name and the live instances this process holds."""

    def __init__(self, tools: dict[str, Tool], settings: WorkerSettings):
        self.runtime = ToolRuntime(tools)
        self.tools = self.runtime.tools
        self.settings = settings
        self.instances: dict[str, Instance] = {}
        # id -> incarnation released or reaped since the last heartbeat: the master drops its placement only if it
        # is that incarnation (a heartbeat sent before the id was created again must not drop the new one)
        self.released: dict[str, str] = {}
        self._boot = uuid.uuid4().hex[:12]
        self._creates = itertools.count(1)
        self.calls = 0
        self.metrics = Metrics()
        self.background: list[Callable[[], Awaitable[None]]] = []
        self.aliases = class_aliases(self.tools)
        # after a pause longer than the master waits (SIGSTOP, a frozen VM) the master has declared this worker
        # dead and its instances lost (410, final): refuse calls until registered again (clears this flag)
        self.dead_after = 6.0
        self.suspect = False
        self._last_tick = time.monotonic()

    def app(self) -> BearerAuth:
        return make_app([
            Route("/health", self.health, methods=["GET"]),
            Route("/metrics", self.metrics_page, methods=["GET"]),
            Route("/_proof", self.proof, methods=["POST"]),
            Route("/_instances/exists", self.exists, methods=["POST"]),
            Route("/{tool}/{op}", self.tool_call, methods=["POST"]),
        ], self.lifespan, self.settings.token, self.metrics, tool_calls=self.call)

    @contextlib.asynccontextmanager
    async def lifespan(self, app):
        tasks = [asyncio.create_task(self._reap_forever())] + [asyncio.create_task(job()) for job in self.background]
        self._last_tick = time.monotonic()
        self._tick()
        try:
            yield
        finally:
            self._tick_handle.cancel()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            for instance_id in list(self.instances):
                await self._release(instance_id)

    def _tick(self) -> None:
        """A plain timer, not a task: after SIGCONT it runs before any request queued meanwhile is handled."""
        now = time.monotonic()
        if now - self._last_tick > self.dead_after and not self.suspect:
            self.suspect = True
            log.warning("worker %r was paused %.1fs (the master waits %gs): refusing calls until registered again",
                        self.settings.worker_id, now - self._last_tick, self.dead_after)
        self._last_tick = now
        self._tick_handle = asyncio.get_running_loop().call_later(min(1.0, self.dead_after / 4), self._tick)

    def live(self) -> dict[str, str]:
        return {instance_id: inst.tool for instance_id, inst in self.instances.items()}

    async def health(self, request: Request) -> Response:
        return json_response({"status": "ok", "role": "worker", "worker_id": self.settings.worker_id,
                              "tools": sorted(self.tools), "instances": len(self.instances), "calls": self.calls})

    async def metrics_page(self, request: Request) -> Response:
        gauges = {"worker_live_instances": ("Live instances on this worker.",
                                            [({"worker": self.settings.worker_id}, len(self.instances))])}
        return PlainTextResponse(self.metrics.render(gauges), media_type="text/plain; version=0.0.4")

    async def proof(self, request: Request) -> Response:
        body = await read_json(request, 4096, self.settings.body_timeout)
        nonce = body.get("nonce")
        if not isinstance(nonce, str) or not 16 <= len(nonce) <= 128:
            raise ApiError(400, "bad_request", "nonce must be a string of 16-128 characters")
        return json_response({"proof": proof_of(self.settings.token, nonce)})

    async def exists(self, request: Request) -> Response:
        body = await read_json(request, 4096, self.settings.body_timeout)
        inst = self.instances.get(check_instance_id(body.get("instance_id")))
        return json_response({"exists": inst is not None, "incarnation": inst.incarnation if inst else None})

    async def tool_call(self, request: Request) -> Response:
        return await self.call(request.path_params["tool"], request.path_params["op"], request.scope,
                               request.receive)

    async def call(self, tool: str, op: str, scope, receive) -> Response:
        """One tool call, `POST /{tool}/{op}` (also the `ToolCalls` fast path)."""
        started = time.perf_counter()
        asked, tool = tool, self.aliases.get(tool, tool)
        try:
            if op not in OPERATIONS:
                raise ApiError(404, "not_found", f"no route {scope['path']}")
            if self.suspect and not _forwarded(scope):  # the master routes only to workers it thinks alive
                raise retry_later("worker_resuming", "this worker was paused and is registering again: "
                                  "ask the master")
            if tool not in self.tools:
                raise ApiError(404, "unknown_tool", f"this worker does not serve tool {tool!r}")
            body = parse_object(await receive_body(scope, receive, self.settings.max_body, self.settings.body_timeout))
            self.calls += 1
            result = await getattr(self, f"_{op}")(tool, body)
            if op == "execute" and (asked != tool or "parameters" not in body):  # a seed client: its 3-list
                result = [result["text"], result["reward"], result["metrics"]]
            response, error_type = json_response(result), None
        except ApiError as exc:
            response, error_type = api_error_response(exc), exc.type
        self.metrics.observe(op if op in OPERATIONS else "other", response.status_code,
                             time.perf_counter() - started, error_type)
        return response

    def _instance(self, tool: str, body: dict[str, Any]) -> tuple[str, Instance]:
        instance_id = check_instance_id(body.get("instance_id"))
        inst = self.instances.get(instance_id)
        if inst is None or inst.tool != tool:
            if instance_id in self.released:  # the master must answer 404 too, not 410 as for a restarted worker
                raise ApiError(404, "unknown_instance", f"instance {instance_id!r} was released",
                               {"released": True})
            raise ApiError(404, "unknown_instance", f"no live instance {instance_id!r} of tool {tool!r}")
        inst.last_used = time.monotonic()
        return instance_id, inst

    async def _create(self, tool: str, body: dict[str, Any]) -> dict[str, Any]:
        instance_id = check_instance_id(body.get("instance_id"), required=False) or uuid.uuid4().hex
        if instance_id in self.instances:
            raise ApiError(409, "conflict", f"instance {instance_id!r} already exists")
        kwargs = create_kwargs(body)
        self.released.pop(instance_id, None)
        # reserve first: a concurrent create of the same id must see the conflict
        incarnation = f"{self._boot}-{next(self._creates)}"
        self.instances[instance_id] = Instance(tool, instance_id, incarnation)
        try:
            returned = await self.tools[tool].create(instance_id, **kwargs)
        except TypeError as exc:
            self.instances.pop(instance_id, None)
            raise ApiError(400, "bad_request", f"bad create arguments for {tool}: {exc}") from None
        except ToolError as exc:
            self.instances.pop(instance_id, None)
            raise ApiError(422, exc.kind, exc.message) from None
        except Exception as exc:
            self.instances.pop(instance_id, None)
            raise ApiError(500, "tool_exception", f"{tool}.create failed: {type(exc).__name__}") from None
        self.instances[instance_id].tool_instance_id = returned if isinstance(returned, str) else instance_id
        return {"instance_id": instance_id, "worker_id": self.settings.worker_id, "incarnation": incarnation}

    async def _execute(self, tool: str, body: dict[str, Any]) -> dict[str, Any]:
        instance_id, inst = self._instance(tool, body)
        parameters = execute_parameters(body)
        if not isinstance(parameters, dict):
            raise ApiError(400, "invalid_arguments", "parameters must be a JSON object")
        problem = self.runtime.validate(tool, parameters)
        if problem:
            raise ApiError(400, "invalid_arguments", f"invalid arguments for {tool}: {problem}")
        try:
            text, reward, metrics = await self.tools[tool].execute(inst.tool_instance_id, parameters)
        except ToolError as exc:
            raise ApiError(422, exc.kind, exc.message) from None
        except Exception as exc:
            raise ApiError(500, "tool_exception", f"tool {tool} failed: {type(exc).__name__}: {exc}") from None
        return {"text": text if isinstance(text, str) else str(text), "reward": float(reward or 0.0),
                "metrics": dict(metrics or {})}

    async def _calc_reward(self, tool: str, body: dict[str, Any]) -> dict[str, Any]:
        _, inst = self._instance(tool, body)
        try:
            reward = await self.tools[tool].calc_reward(inst.tool_instance_id)
        except Exception as exc:
            raise ApiError(500, "tool_exception", f"{tool}.calc_reward failed: {type(exc).__name__}") from None
        return {"reward": float(reward or 0.0)}

    async def drop(self, instance_id: str) -> None:
        """Release an instance the master will not route to us (lost while we were paused, or claimed elsewhere)."""
        if isinstance(instance_id, str) and instance_id in self.instances:
            await self._release(instance_id)
            log.info("dropped instance %r at the master's request", instance_id)

    async def _release(self, tool_or_id: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        if body is None:  # internal: release by id (reaper, shutdown)
            instance_id = tool_or_id
        else:
            instance_id = check_instance_id(body.get("instance_id"))
            inst = self.instances.get(instance_id)
            if inst is None or inst.tool != tool_or_id:
                return {"released": False}
            self.released[instance_id] = inst.incarnation  # the master drops its placement on the next heartbeat
        inst = self.instances.pop(instance_id, None)
        if inst is None:
            return {"released": False}
        try:
            await self.tools[inst.tool].release(inst.tool_instance_id)
        except Exception as exc:  # the instance is gone from our table either way
            log.warning("%s.release failed: %s", inst.tool, type(exc).__name__)
        return {"released": True}

    async def _reap_forever(self) -> None:
        ttl = self.settings.instance_ttl
        while True:
            await asyncio.sleep(min(30.0, max(0.2, ttl / 4)))
            cutoff = time.monotonic() - ttl
            for instance_id, inst in [(i, inst) for i, inst in self.instances.items() if inst.last_used < cutoff]:
                if (await self._release(instance_id))["released"]:
                    self.released[instance_id] = inst.incarnation
            if self.released:
                log.info("reaped idle instances (ttl %gs); %d to report", ttl, len(self.released))
