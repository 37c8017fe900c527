"""What the master shows about itself: the state (the dashboard at `/`, `/health`) and the Prometheus `/metrics`."""
from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response

from . import dashboard
from .membership import Membership
from .metrics import Metrics
from .protocol import json_response
from .routing import InstanceTable


class StatusPages:
    """The master's read-only pages; `mcp` is the MCP endpoint (its sessions and gauges)."""

    def __init__(self, membership: Membership, table: InstanceTable, metrics: Metrics, mcp: Any,
                 ready: Callable[[], bool], expect_workers: int, heartbeat_interval: float):
        self.membership = membership
        self.table = table
        self.metrics = metrics
        self.mcp = mcp
        self.ready = ready
        self.expect_workers = expect_workers
        self.heartbeat_interval = heartbeat_interval
        self.started = time.time()

    def state(self) -> dict[str, Any]:
        load = self.table.by_worker()
        workers = [w.view(load.get(w.worker_id, 0)) for w in self.membership.workers.values()]
        alive = sum(w.alive for w in self.membership.workers.values())
        status = "ok" if self.ready() else ("starting" if self.expect_workers else "recovering")
        return {"status": status, "role": "master", "uptime_s": round(time.time() - self.started, 1),
                "workers_expected": self.expect_workers,
                "heartbeat_interval_s": self.heartbeat_interval,
                "workers_alive": alive, "workers_total": len(workers), "workers": workers,
                "tools": self.membership.tool_view(),
                "instances": {"total": len(self.table.placements), "by_worker": load,
                              "lost": len(self.table.lost)},
                "mcp": self.mcp.state()}

    async def health(self, request: Request) -> Response:
        state = self.state()
        return json_response(state, 503 if state["status"] == "starting" else 200)

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
            **self.mcp.gauges(),
        }
        return PlainTextResponse(self.metrics.render(gauges), media_type="text/plain; version=0.0.4")
