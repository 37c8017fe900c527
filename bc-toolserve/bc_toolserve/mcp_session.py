"""What an MCP session of bc-toolserve holds: the task it plays and one instance per tool of that task.

A session chooses its task when it starts (`?task=ID`, or `?bootcamp=NAME&seed=S&index=I[&split=SPLIT][&group=G]`),
creates each tool's instance on its first call with the task's identity, and releases them all when it ends
(closed by the client, idle past the TTL, or the server stopping). Sessions never share instances. The MCP SDK
is not needed here: `mcp_server.py` (HTTP) and `mcp_stdio.py` speak the protocol.
"""
from __future__ import annotations

import asyncio
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from bc_common.bootcamp import Tool
from bc_common.environment import Environment, Environments
from bc_common.errors import BcError, ToolError
from bc_common.readers import read_records
from bc_common.records import check_task, task_id
from bc_common.rollout import offered_tools, prompt_messages
from bc_common.seeding import new_instance_id
from bc_common.tool_runtime import ToolResult, ToolRuntime

SELECTORS = ("task", "bootcamp", "seed", "index", "split", "group")
DEFAULT_MAX_SESSIONS = 4096  # ~44 KB each here, plus their instances on the workers
DEFAULT_MAX_PER_CLIENT = 1024  # bc-eval holds one session per trajectory in flight (-c, 64 by default)
HOW_TO_CHOOSE = ("choose the session's task in the URL: ?bootcamp=NAME&seed=S&index=I[&split=SPLIT][&group=GROUP] "
                 "or ?task=ID (ids of a task file served with --tasks)")


class TaskChoiceError(Exception):
    """The task a session asked for cannot be served (the session is refused with `status`, nothing is created)."""

    kind: str | None = None  # our error `type` in the refusal, where one helps a client tell refusals apart

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


class SessionLimit(TaskChoiceError):
    """A new session refused at a cap: 503 at the server's (`--mcp-max-sessions`), 429 at the client's."""

    kind = "too_many_sessions"


def load_tasks(path: str | Path) -> dict[str, dict[str, Any]]:
    """Task rows of a file by id (`--tasks FILE`); errors name the file and line."""
    return {task_id(record.data): record.data for record in read_records([path], validate=check_task)}


class TaskChooser:
    """Resolves a session's task: by id in the served task file, or as task *i* of (bootcamp, seed, split)."""

    def __init__(self, tasks: dict[str, dict[str, Any]] | None = None, cache_size: int = 32):
        self.tasks = tasks or {}
        self._sets: OrderedDict[tuple, Any] = OrderedDict()
        self._cache_size = cache_size

    def choose(self, query: Mapping[str, str]) -> dict[str, Any]:
        unknown = sorted(set(query) - set(SELECTORS))
        if unknown:
            raise TaskChoiceError(f"unknown parameter {unknown[0]!r}; {HOW_TO_CHOOSE}")
        wanted = query.get("task")
        if wanted and wanted in self.tasks:
            return self.tasks[wanted]
        if not query.get("bootcamp"):
            if wanted:
                raise TaskChoiceError(f"no task {wanted!r} in the served task file; {HOW_TO_CHOOSE}")
            raise TaskChoiceError(HOW_TO_CHOOSE)
        row = self._generated(query)
        if wanted and row.get("id") != wanted:
            raise TaskChoiceError(f"task {wanted!r} is not task {query.get('index')} of bootcamp "
                                  f"{query['bootcamp']!r} with seed {query.get('seed', '0')} (generated with other "
                                  "parameters?): serve its task file with --tasks")
        return row

    def _generated(self, query: Mapping[str, str]) -> dict[str, Any]:
        from bc_common.tasks import TaskSet

        seed, index = _integer(query, "seed", 0), _integer(query, "index", None)
        key = (query["bootcamp"], seed, query.get("split") or "train", query.get("group") or None)
        tasks = self._sets.get(key)
        try:
            if tasks is None:
                tasks = TaskSet(key[0], seed=seed, split=key[2], groups=[key[3]] if key[3] else None)
            row = tasks[index]
        except (BcError, IndexError) as exc:
            raise TaskChoiceError(str(exc)) from None
        except Exception as exc:  # a generator's bug refuses this session, nothing else
            raise TaskChoiceError(f"bootcamp {key[0]!r} failed to generate task {index}: {type(exc).__name__}: "
                                  f"{exc}", 500) from None
        self._sets[key] = tasks
        self._sets.move_to_end(key)
        while len(self._sets) > self._cache_size:
            self._sets.popitem(last=False)
        return row


def _integer(query: Mapping[str, str], key: str, default: int | None) -> int:
    text = query.get(key)
    if text is None or text == "":
        if default is None:
            raise TaskChoiceError(f"missing parameter {key!r}; {HOW_TO_CHOOSE}")
        return default
    try:
        value = int(text)
    except ValueError:
        raise TaskChoiceError(f"parameter {key!r} must be an integer, got {text[:40]!r}") from None
    if value < 0:
        raise TaskChoiceError(f"parameter {key!r} must be >= 0")
    return value


class SessionEnded(Exception):
    """The session ended (closed by its client, idle past its TTL, the server stopping) before or during a call."""

    def __init__(self) -> None:
        super().__init__("this MCP session has ended (closed, idle past its TTL, or the server stopping): start a "
                         "new session")


class McpSession:
    """One MCP session: the task's offered tools, each instance created on first call and released at `close`,
    which also ends the calls still in flight (they raise SessionEnded at once)."""

    def __init__(self, task: dict[str, Any], env: Environment, runtime: ToolRuntime):
        names, create_kwargs = offered_tools(task, env)
        self.task = task
        self.runtime = runtime
        self.tools = runtime.session(create_kwargs, names)
        self.last_used = time.monotonic()
        self.client = ""  # who opened it (the address), for the per-client cap
        self.busy = 0  # requests in flight: a busy session is never idle
        self.closed = False
        self._calls: set[asyncio.Task] = set()  # tool calls in flight, cancelled by close()
        self.requests: set[asyncio.Future] = set()  # HTTP requests in flight, each done once answered

    @property
    def schemas(self) -> list[dict[str, Any]]:
        return self.tools.schemas

    @property
    def prompt(self) -> list[dict[str, Any]]:
        return prompt_messages(self.task)

    @property
    def instances(self) -> int:
        return 0 if self.closed else len(self.tools.instances)

    async def call(self, name: str, arguments: dict[str, Any] | None) -> tuple[ToolResult, float | None]:
        """Run one tool call: (the result, the tool's trajectory reward after it, None when not created). Raises
        SessionEnded when the session has ended, or ends while the call runs."""
        if self.closed:
            raise SessionEnded()
        self.last_used = time.monotonic()
        running = asyncio.ensure_future(self._run(name, arguments))
        self._calls.add(running)
        running.add_done_callback(self._calls.discard)
        try:
            await asyncio.wait({running})
        except asyncio.CancelledError:  # the caller went away: so does its call
            running.cancel()
            raise
        if running.cancelled():  # close() ended it
            raise SessionEnded()
        return running.result()

    async def _run(self, name: str, arguments: dict[str, Any] | None) -> tuple[ToolResult, float | None]:
        result = await self.tools.call(name, arguments)
        instance_id = self.tools.instances.get(name)
        tool_reward = None
        if instance_id is not None and not self.closed:
            try:
                tool_reward = float(await self.runtime.tools[name].calc_reward(instance_id))
            except Exception:
                tool_reward = 0.0
        self.last_used = time.monotonic()
        return result, tool_reward

    async def close(self) -> None:
        """End the calls in flight, then release every instance (a create still running is released when done)."""
        if self.closed:
            return
        self.closed = True
        calls = list(self._calls)
        for running in calls:
            running.cancel()
        if calls:
            await asyncio.wait(calls)
        await self.tools.close()


class McpSessions:
    """The live sessions of one server, by MCP session id. `runtime_for(env)` gives the tools the sessions of a
    bootcamp use: the bootcamp's own (in process) or proxies to the workers (on the master)."""

    def __init__(self, chooser: TaskChooser, runtime_for: Callable[[Environment], ToolRuntime],
                 idle_ttl: float = 1800.0, unserved: Callable[[list[str]], list[str]] | None = None,
                 max_sessions: int = DEFAULT_MAX_SESSIONS, max_per_client: int = DEFAULT_MAX_PER_CLIENT):
        self.chooser = chooser
        self.runtime_for = runtime_for
        self.unserved = unserved  # the tools of a list that nobody serves now (the master: no live worker)
        self.idle_ttl = idle_ttl
        self.max_sessions = max_sessions
        self.max_per_client = max_per_client
        self.envs = Environments()
        self.live: dict[str, McpSession] = {}
        self.ended = 0
        self.opening = 0  # sessions admitted whose opening request is still being answered
        self.clients: Counter[str] = Counter()  # live and opening sessions by client
        self.refused: Counter[str] = Counter()  # refusals at a cap: "server", "client"
        self._choosing = threading.Lock()  # generators keep state: one task drawn at a time

    def admit(self, client: str) -> None:
        """Hold room for a new session of `client` (an address), or raise SessionLimit at either cap. Every
        admission ends in `add` or `abandon`; call it on the event loop (it counts without a lock)."""
        if len(self.live) + self.opening >= self.max_sessions:
            self.refused["server"] += 1
            raise SessionLimit(f"too many MCP sessions on this server ({self.max_sessions}, --mcp-max-sessions): "
                               "end finished sessions (DELETE, which MCP clients send on exit) or retry later", 503)
        if self.clients[client] >= self.max_per_client:
            self.refused["client"] += 1
            raise SessionLimit(f"too many MCP sessions from this client ({self.max_per_client}, "
                               "--mcp-max-sessions-per-client): end finished sessions (DELETE) or retry later", 429)
        self.opening += 1
        self.clients[client] += 1

    def abandon(self, client: str) -> None:
        """An admitted session that never opened gives its room back."""
        self.opening -= 1
        self._forget(client)

    def _forget(self, client: str) -> None:
        self.clients[client] -= 1
        if self.clients[client] <= 0:
            del self.clients[client]

    def start(self, query: Mapping[str, str]) -> McpSession:
        """A new session for the task `query` chooses (TaskChoiceError when it cannot be served). Thread-safe:
        servers call it in a thread, as drawing a task may take a while."""
        with self._choosing:
            task = self.chooser.choose(query)
            try:
                env = self.envs.get(task["data_source"])
            except BcError as exc:
                raise TaskChoiceError(str(exc)) from None
            except Exception as exc:  # e.g. a bootcamp whose field library (an extra) is missing here
                raise TaskChoiceError(f"cannot load the tools of {task['data_source']}: {type(exc).__name__}: "
                                      f"{exc}", 500) from None
            names = offered_tools(task, env)[0] if env.tools is not None else []
            if not names:
                raise TaskChoiceError(f"task {task_id(task)!r} ({task['data_source']}) offers no tools")
            missing = self.unserved(names) if self.unserved else []
            if missing:
                raise TaskChoiceError(f"no live worker serves {', '.join(missing)} (tools of {task['data_source']})",
                                      503)
            return McpSession(task, env, self.runtime_for(env))

    def add(self, session_id: str, session: McpSession) -> None:
        """An admitted session opened under `session_id`."""
        self.opening -= 1
        self.live[session_id] = session

    async def end(self, session_id: str) -> None:
        session = self.live.pop(session_id, None)
        if session is not None:
            self.ended += 1
            self._forget(session.client)
            await session.close()

    async def reap(self) -> int:
        """End the sessions idle longer than the TTL; returns how many."""
        cutoff = time.monotonic() - self.idle_ttl
        idle = [sid for sid, s in self.live.items() if not s.busy and s.last_used < cutoff]
        for session_id in idle:
            await self.end(session_id)
        return len(idle)

    async def reap_forever(self) -> None:
        while True:
            await asyncio.sleep(min(30.0, max(0.05, self.idle_ttl / 4)))
            await self.reap()

    async def end_all(self) -> None:
        for session_id in list(self.live):
            await self.end(session_id)

    def state(self) -> dict[str, Any]:
        """What /health shows: counts only (no client's address)."""
        return {"sessions": len(self.live), "instances": sum(s.instances for s in self.live.values()),
                "ended": self.ended, "idle_ttl_s": self.idle_ttl, "max_sessions": self.max_sessions,
                "max_sessions_per_client": self.max_per_client, "clients": len(self.clients),
                "busiest_client_sessions": max(self.clients.values(), default=0),
                "refused": {"server_full": self.refused["server"], "client_full": self.refused["client"]}}


class RoutedTool(Tool):
    """A tool whose instances live on the master's workers, reached through the master in process."""

    def __init__(self, dispatch: Callable[..., Any], tool_schema: dict[str, Any]):
        super().__init__({}, tool_schema)
        self.dispatch = dispatch  # Master.dispatch(tool, op, body) -> answer dict; raises ApiError

    async def _op(self, op: str, body: dict[str, Any]) -> dict[str, Any]:
        from .protocol import ApiError

        try:
            return await self.dispatch(self.name, op, body)
        except ApiError as exc:
            raise ToolError(exc.type, exc.message) from None

    async def create(self, instance_id: str | None = None, identity: dict[str, Any] | None = None,
                     **kwargs: Any) -> str:
        kwargs = {**kwargs, **({"identity": identity} if identity is not None else {})}
        answer = await self._op("create", {"instance_id": instance_id or new_instance_id(), "create_kwargs": kwargs})
        return answer["instance_id"]

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[str, float, dict]:
        answer = await self._op("execute", {"instance_id": instance_id, "parameters": parameters})
        return answer.get("text", ""), float(answer.get("reward") or 0.0), dict(answer.get("metrics") or {})

    async def calc_reward(self, instance_id: str, **kwargs: Any) -> float:
        return float((await self._op("calc_reward", {"instance_id": instance_id})).get("reward") or 0.0)

    async def release(self, instance_id: str, **kwargs: Any) -> None:
        await self._op("release", {"instance_id": instance_id})


def routed_runtimes(dispatch: Callable[..., Any]) -> Callable[[Environment], ToolRuntime]:
    """`runtime_for` of the master: per bootcamp, the bootcamp's tool schemas served by `dispatch`."""
    cache: dict[str, ToolRuntime] = {}

    def runtime_for(env: Environment) -> ToolRuntime:
        if env.data_source not in cache:
            cache[env.data_source] = ToolRuntime({name: RoutedTool(dispatch, tool.tool_schema)
                                                  for name, tool in env.tools.tools.items()})
        return cache[env.data_source]

    return runtime_for
