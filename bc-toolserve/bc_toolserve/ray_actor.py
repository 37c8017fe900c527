"""One bc-toolserve worker inside a Ray actor: the same HTTP server, token, registration with the master and
heartbeat as a hand-started worker, run on a thread of the actor's process, so a killed actor is a dead worker.

This module imports no Ray: `bc_toolserve.ray_workers` wraps `ToolWorkerActor` with `ray.remote` when it places
the actors, and Ray constructs it again (new port, new worker id) when it restarts a killed one.
"""
from __future__ import annotations

import asyncio
import logging
import os
import threading

import uvicorn

from bc_common.tool_config import ToolSpec

from .auth import token_from_env
from .guard import Limits
from .loading import instantiate
from .registration import stay_registered
from .server import bind, server_config, setup_logging, url_of
from .worker import Worker, WorkerSettings

log = logging.getLogger("bc_toolserve.ray")
WILDCARDS = ("0.0.0.0", "::", "")


def node_address(ray) -> str:
    """The address this Ray node was started with (`--node-ip-address`); `ray.util.get_node_ip_address()` would
    guess from the default route instead."""
    node_id = ray.get_runtime_context().get_node_id()
    return next(n["NodeManagerAddress"] for n in ray.nodes() if n["NodeID"] == node_id)


class ToolWorkerActor:
    """Serve `specs` as worker `{prefix}-{index}-{pid}` registered with `master_url` (token from
    `BC_TOOLSERVE_TOKEN` in the actor's environment). `host` defaults to the Ray node's address."""

    def __init__(self, master_url: str, specs: list[ToolSpec], index: int, prefix: str = "ray",
                 instance_ttl: float = 3600.0, host: str | None = None, limits: Limits | None = None,
                 log_level: str = "INFO"):
        import ray

        setup_logging(log_level)
        token = token_from_env()
        node_ip = node_address(ray)
        host = host or node_ip
        sock = bind(host, 0, token)  # refuses a non-loopback address without a token, like `bc-toolserve worker`
        port = sock.getsockname()[1]
        # a wildcard bind advertises the node's address (the one Ray schedules on), not what the hostname resolves to
        self.url = f"http://{node_ip}:{port}" if host in WILDCARDS else url_of(sock, host)
        self.worker_id = f"{prefix}-{index}-{os.getpid()}"
        worker = Worker(instantiate(specs), WorkerSettings(self.worker_id, token, instance_ttl))
        worker.background.append(lambda: stay_registered(worker, master_url, self.url, token))
        # as server.serve, but an object we hold, so that `stop()` can end it from the actor's own thread
        self.server = uvicorn.Server(server_config(worker.app(), limits))
        self.thread = threading.Thread(target=self._serve, args=(sock,), name=f"worker-{self.worker_id}",
                                       daemon=True)
        self.thread.start()
        log.info("bc-toolserve worker %r on %s (Ray actor) serving %s", self.worker_id, self.url,
                 ", ".join(sorted(worker.tools)))

    def _serve(self, sock) -> None:
        try:
            import uvloop
        except ImportError:
            asyncio.run(self.server.serve(sockets=[sock]))
        else:
            uvloop.run(self.server.serve(sockets=[sock]))

    def describe(self) -> dict:
        """This incarnation's worker id, URL and process id (the actor's pid: what a crash kills)."""
        return {"worker_id": self.worker_id, "url": self.url, "pid": os.getpid(), "serving": self.thread.is_alive()}

    def stop(self, grace: float = 10.0) -> bool:
        """End the worker as SIGTERM ends a hand-started one (its instances released); True once it stopped."""
        self.server.should_exit = True
        self.thread.join(grace)
        return not self.thread.is_alive()
