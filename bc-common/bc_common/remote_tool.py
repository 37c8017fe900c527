"""`RemoteTool`: a drop-in `Tool` whose instances live on a bc-toolserve server.

    tools:
      - class_name: bc_common.remote_tool.RemoteTool
        config: {type: native, server_url: http://127.0.0.1:8000, timeout_per_query: 60}
        tool_schema: {...the tool's own schema...}

The token comes from `BC_TOOLSERVE_TOKEN`. After create, calls go straight to the worker holding the
instance (its URL comes with the create answer) and fall back to the master if the worker cannot be reached.
HTTP errors become `ToolError(kind, message)`; only calls that are safe to repeat are retried.
"""
from __future__ import annotations

import asyncio
import os
import time
import uuid
from typing import Any

import aiohttp
import orjson

from .bootcamp import Tool
from .errors import ConfigError, ToolError
from .redaction import redact_url

TOKEN_ENV = "BC_TOOLSERVE_TOKEN"
# 503s that say "repeat this call" (a master recovering its table after a restart; a worker declared dead while
# the call waited, whose repeat gets the final 410): retried while the call's time budget lasts
PATIENT = frozenset({"recovering", "worker_lost"})
_sessions: dict[asyncio.AbstractEventLoop, tuple[aiohttp.ClientSession, list[int]]] = {}


class RemoteTool(Tool):
    """A tool served by bc-toolserve; same signatures as `bc_common.bootcamp.Tool`."""

    def __init__(self, config: dict[str, Any] | None = None, tool_schema: dict[str, Any] | None = None):
        super().__init__(config, tool_schema)
        url = self.config.get("server_url") or self.config.get("master_url")
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            raise ConfigError(f"RemoteTool {self.name!r}: config.server_url must be an http(s) URL")
        self.server_url = url.rstrip("/")
        try:
            self.timeout = float(self.config.get("timeout_per_query", 60))
            self.retries = int(self.config.get("retries", 3))
        except (TypeError, ValueError):
            raise ConfigError(f"RemoteTool {self.name!r}: config.timeout_per_query and config.retries must be "
                              f"numbers") from None
        if not self.timeout > 0 or self.retries < 0:
            raise ConfigError(f"RemoteTool {self.name!r}: config.timeout_per_query must be > 0, retries >= 0")
        self.direct = bool(self.config.get("direct", True))
        token = os.environ.get(TOKEN_ENV, "").strip()
        self._headers = {"Content-Type": "application/json"}
        if token:
            self._headers["Authorization"] = f"Bearer {token}"
        self._workers: dict[str, str] = {}  # instance id -> worker URL
        self._worker_ids: dict[str, str] = {}  # instance id -> worker id (to ask the master if it still lives)
        self._live: set[str] = set()

    async def check(self) -> str:
        """Prove, before a run, that the tool server answers and takes our token: the release of an instance
        that never existed (no side effect). Raises ToolError (`unauthorized`, `forbidden`, `unavailable`...)."""
        body = orjson.dumps({"instance_id": f"bc-preflight-{uuid.uuid4().hex}"})
        shown = redact_url(self.server_url)
        timeout = aiohttp.ClientTimeout(total=min(self.timeout, 10.0))
        try:
            async with aiohttp.ClientSession() as session, session.post(
                    f"{self.server_url}/{self.name}/release", data=body, headers=self._headers, timeout=timeout,
                    allow_redirects=False) as resp:
                raw, status = await resp.content.read(1 << 16), resp.status
        except asyncio.TimeoutError:
            raise ToolError("timeout", f"{shown} did not answer within {timeout.total:g}s") from None
        except (aiohttp.ClientError, OSError) as exc:
            raise ToolError("unavailable", f"cannot reach {shown}: {type(exc).__name__}") from None
        if status == 200:
            return f"{shown} serves {self.name} and accepts the token"
        kind, message = _error_of(raw, status)
        if status in (401, 403):
            message += f" (set {TOKEN_ENV} to the server's token)"
        raise ToolError(kind, f"{shown}: {message}")

    # --- the Tool interface ----------------------------------------------------------------------------
    async def create(self, instance_id: str | None = None, identity: dict[str, Any] | None = None,
                     **kwargs: Any) -> str:
        instance_id = instance_id or uuid.uuid4().hex
        body = {"instance_id": instance_id, "create_kwargs": {**kwargs, **({"identity": identity}
                                                                            if identity is not None else {})}}
        _acquire()
        try:
            answer = await self._call(self.server_url, "create", body, retry_conflict=True)
        except BaseException:
            await _release_session()
            raise
        instance_id = answer.get("instance_id", instance_id)
        self._live.add(instance_id)
        if self.direct and isinstance(answer.get("worker_url"), str):
            self._workers[instance_id] = answer["worker_url"].rstrip("/")
            if isinstance(answer.get("worker_id"), str):
                self._worker_ids[instance_id] = answer["worker_id"]
        return instance_id

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[str, float, dict]:
        answer = await self._routed(instance_id, "execute", {"instance_id": instance_id, "parameters": parameters},
                                    safe=False)
        return answer.get("text", ""), float(answer.get("reward") or 0.0), dict(answer.get("metrics") or {})

    async def calc_reward(self, instance_id: str, **kwargs: Any) -> float:
        answer = await self._routed(instance_id, "calc_reward", {"instance_id": instance_id}, safe=True)
        return float(answer.get("reward") or 0.0)

    async def release(self, instance_id: str, **kwargs: Any) -> None:
        """Idempotent. Goes to the worker directly when known (it reports releases to the master)."""
        known = instance_id in self._live
        self._live.discard(instance_id)
        try:
            await self._routed(instance_id, "release", {"instance_id": instance_id}, safe=True)
        finally:
            self._workers.pop(instance_id, None)
            self._worker_ids.pop(instance_id, None)
            if known:
                await _release_session()

    # --- transport -------------------------------------------------------------------------------------
    async def _routed(self, instance_id: str, op: str, body: dict[str, Any], safe: bool) -> dict[str, Any]:
        _acquire()  # held for the call: a call on an unknown (or released) id must not leave a session open
        try:
            return await self._routed_call(instance_id, op, body, safe)
        finally:
            await _release_session()

    async def _routed_call(self, instance_id: str, op: str, body: dict[str, Any], safe: bool) -> dict[str, Any]:
        worker = self._workers.get(instance_id)
        if worker:
            try:
                return await self._call(worker, op, body, safe=safe, direct=True,
                                        worker_id=self._worker_ids.get(instance_id))
            except _FallBack:
                self._workers.pop(instance_id, None)  # the master knows whether the instance still exists
        return await self._call(self.server_url, op, body, safe=safe)

    async def _call(self, base: str, op: str, body: dict[str, Any], safe: bool = True, direct: bool = False,
                    retry_conflict: bool = False, worker_id: str | None = None) -> dict[str, Any]:
        url = f"{base}/{self.name}/{op}"
        payload = orjson.dumps(body)
        timeout = aiohttp.ClientTimeout(total=self.timeout)
        deadline = time.monotonic() + self.timeout  # waits the server asks for stay within one call's budget
        delay, attempt = 0.1, 0
        while attempt <= self.retries:
            last = attempt == self.retries
            watch = _Watch(self, worker_id) if direct and worker_id else None
            try:
                async with _session().post(url, data=payload, headers=self._headers, timeout=timeout,
                                           allow_redirects=False) as resp:  # never carry the token elsewhere
                    raw = await resp.read()
                    status, retry_after = resp.status, resp.headers.get("Retry-After")
            except asyncio.CancelledError:
                if watch is None or not watch.fired:
                    raise
                asyncio.current_task().uncancel()
                raise _FallBack() from None  # the master declared the worker dead: it answers for the instance
            except aiohttp.ClientConnectorError as exc:  # nothing was sent: always safe to retry
                if direct:
                    raise _FallBack() from exc
                if last:
                    raise ToolError("unavailable", f"cannot reach {redact_url(base)}: {exc}") from None
            except asyncio.TimeoutError:
                raise ToolError("timeout", f"{self.name}.{op} took longer than {self.timeout:g}s") from None
            except (aiohttp.ClientError, OSError) as exc:
                if direct:
                    raise _FallBack() from exc
                if not safe or last:
                    raise ToolError("unavailable", f"{self.name}.{op}: connection failed: {exc}") from None
            else:
                if status == 200:
                    return _object(raw)
                kind, message = _error_of(raw, status)
                if direct and (status == 404 and kind == "unknown_instance" or status == 503):
                    raise _FallBack()  # released, or a worker resuming from a pause: the master knows
                if status == 409 and retry_conflict and attempt > 0:
                    return {"instance_id": body.get("instance_id")}  # our earlier attempt created it
                if status == 503 and kind in PATIENT:  # the server says when to come back: not an attempt
                    wait = _seconds(retry_after)
                    if time.monotonic() + wait >= deadline:
                        raise ToolError(kind, message)
                    await asyncio.sleep(wait)
                    continue
                if status not in (502, 503) or last or (status == 502 and not safe):
                    raise ToolError(kind, message)
            finally:
                if watch is not None:
                    watch.stop()
            attempt += 1
            await asyncio.sleep(delay)
            delay = min(delay * 2, 2.0)
        raise ToolError("unavailable", f"{self.name}.{op}: gave up after {self.retries + 1} attempts")


class _Watch:
    """While a direct call to a worker is slow, ask the master every `WATCH_S` whether that worker still lives;
    when it was declared dead (hung: SIGSTOP, a frozen machine), cancel the call so the master answers for the
    instance (410), instead of waiting for `timeout_per_query`. A timer per call, a request only for slow ones."""

    WATCH_S = 2.0

    def __init__(self, tool: RemoteTool, worker_id: str):
        self.tool, self.worker_id = tool, worker_id
        self.task = asyncio.current_task()
        self.loop = asyncio.get_running_loop()
        self.fired = False
        self.probe: asyncio.Task | None = None
        self.timer = self.loop.call_later(self.WATCH_S, self._check)

    def _check(self) -> None:
        self.probe = self.loop.create_task(self._ask())

    async def _ask(self) -> None:
        url = f"{self.tool.server_url}/_workers/{self.worker_id}"
        try:
            async with _session().get(url, headers=self.tool._headers, allow_redirects=False,
                                      timeout=aiohttp.ClientTimeout(total=self.WATCH_S)) as resp:
                status = orjson.loads(await resp.read()).get("status") if resp.status == 200 else None
        except Exception:  # the master cannot tell: keep waiting for the worker
            status = None
        if status in ("dead", "unknown") and not self.task.done():
            self.fired = True
            self.task.cancel()
        elif not self.task.done():
            self.timer = self.loop.call_later(self.WATCH_S, self._check)

    def stop(self) -> None:
        self.timer.cancel()
        if self.probe is not None and not self.probe.done() and self.probe is not asyncio.current_task():
            self.probe.cancel()


class _FallBack(Exception):
    """A direct worker call failed in a way the master can resolve."""


def _seconds(retry_after: str | None) -> float:
    try:
        return min(max(float(retry_after), 0.0), 5.0) if retry_after is not None else 0.5
    except ValueError:
        return 0.5


def _object(raw: bytes) -> dict[str, Any]:
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise ToolError("protocol", "the tool server answered something that is not JSON") from None
    if not isinstance(data, dict):
        raise ToolError("protocol", "the tool server answered JSON that is not an object")
    return data


def _error_of(raw: bytes, status: int) -> tuple[str, str]:
    try:
        error = orjson.loads(raw)["error"]
        return str(error["type"]), str(error["message"])
    except Exception:
        return f"http_{status}", f"HTTP {status} from the tool server"


def _session() -> aiohttp.ClientSession:
    """The pooled session of the running event loop (created on first use)."""
    loop = asyncio.get_running_loop()
    entry = _sessions.get(loop)
    if entry is None or entry[0].closed:
        connector = aiohttp.TCPConnector(limit=0, keepalive_timeout=30)
        entry = (aiohttp.ClientSession(connector=connector), entry[1] if entry else [0])
        _sessions[loop] = entry
    return entry[0]


def _acquire() -> None:
    """Count a live instance on this loop: the pooled session stays open while any instance lives."""
    loop = asyncio.get_running_loop()
    _session()
    _sessions[loop][1][0] += 1


async def _release_session() -> None:
    loop = asyncio.get_running_loop()
    entry = _sessions.get(loop)
    if entry is None:
        return
    entry[1][0] -= 1
    if entry[1][0] <= 0:
        _sessions.pop(loop, None)
        await entry[0].close()


async def close_sessions() -> None:
    """Close this loop's pooled session now (it reopens on the next call)."""
    entry = _sessions.pop(asyncio.get_running_loop(), None)
    if entry is not None:
        await entry[0].close()
