"""Who serves what: the master's table of registered workers, their heartbeats and liveness."""
from __future__ import annotations

import time
from dataclasses import dataclass, field

ALIVE, DEAD = "alive", "dead"


@dataclass
class WorkerInfo:
    """One registered worker as the master sees it."""

    worker_id: str
    url: str
    tools: list[str]
    host: str = ""
    pid: int | None = None
    registered_at: float = field(default_factory=time.time)
    last_heartbeat: float = field(default_factory=time.monotonic)
    status: str = ALIVE
    calls: int = 0  # tool calls the worker served (reported by heartbeat; includes direct client calls)
    aliases: dict[str, str] = field(default_factory=dict)  # class name -> tool name (the seed's addressing)

    @property
    def alive(self) -> bool:
        return self.status == ALIVE

    def view(self, instances: int) -> dict:
        return {"worker_id": self.worker_id, "status": self.status, "url": self.url, "host": self.host,
                "pid": self.pid, "tools": self.tools, "instances": instances, "calls": self.calls,
                "registered_at": self.registered_at,
                "last_heartbeat_s_ago": round(time.monotonic() - self.last_heartbeat, 3)}


class Membership:
    """Workers by id. A worker missing `missed` heartbeats in a row is dead: no placements, its calls get 410."""

    def __init__(self, heartbeat_interval: float = 2.0, missed: int = 3):
        self.heartbeat_interval = heartbeat_interval
        self.dead_after = heartbeat_interval * missed
        self.workers: dict[str, WorkerInfo] = {}
        self.aliases: dict[str, str] = {}  # class name -> tool name, when every worker agrees

    def register(self, info: WorkerInfo) -> WorkerInfo:
        self.workers[info.worker_id] = info
        tools = self.known_tools()
        seen: dict[str, set[str]] = {}
        for w in self.workers.values():
            for alias, tool in w.aliases.items():
                seen.setdefault(alias, set()).add(tool)
        self.aliases = {a: next(iter(t)) for a, t in seen.items() if len(t) == 1 and a not in tools}
        return info

    def heartbeat(self, worker_id: str, calls: int | None = None) -> WorkerInfo | None:
        """Record a heartbeat; None when the worker is unknown or was declared dead (it must re-register).
        A heartbeat that comes later than `dead_after` is too late even before the sweep saw it."""
        info = self.workers.get(worker_id)
        if info is None or not info.alive or time.monotonic() - info.last_heartbeat > self.dead_after:
            return None
        info.last_heartbeat = time.monotonic()
        if isinstance(calls, int):
            info.calls = calls
        return info

    def sweep(self) -> list[WorkerInfo]:
        """Declare dead every live worker whose last heartbeat is too old; returns the newly dead."""
        now = time.monotonic()
        newly_dead = [w for w in self.workers.values() if w.alive and now - w.last_heartbeat > self.dead_after]
        for w in newly_dead:
            w.status = DEAD
        return newly_dead

    def mark_dead(self, worker_id: str) -> bool:
        info = self.workers.get(worker_id)
        if info is None or not info.alive:
            return False
        info.status = DEAD
        return True

    def alive_with(self, tool: str) -> list[WorkerInfo]:
        return [w for w in self.workers.values() if w.alive and tool in w.tools]

    def known_tools(self) -> set[str]:
        return {t for w in self.workers.values() for t in w.tools}

    def tool_view(self) -> dict[str, dict[str, int]]:
        """For each tool: how many live workers serve it, and how many are registered at all."""
        view: dict[str, dict[str, int]] = {}
        for w in self.workers.values():
            for t in w.tools:
                entry = view.setdefault(t, {"workers": 0, "workers_total": 0})
                entry["workers_total"] += 1
                entry["workers"] += int(w.alive)
        return dict(sorted(view.items()))
