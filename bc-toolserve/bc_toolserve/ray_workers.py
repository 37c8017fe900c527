"""Tool workers placed by Ray: N actors on an existing cluster, each a bc-toolserve worker registered with the
master like a hand-started one (same token, sticky routing, failover). Ray places them by their CPU and memory
requests and restarts a killed one (a new worker: the old one's instances answer 410); we schedule nothing.

    from bc_toolserve.ray_workers import RayToolWorkers
    with RayToolWorkers("http://10.0.0.5:8000", "arithmetic", n=8, num_cpus=1, memory=2 << 30) as workers:
        workers.wait_registered()
        ...   # a verl run on the same cluster points its RemoteTool config at the master
"""
from __future__ import annotations

import dataclasses
import logging
import re
import time
from typing import Any

from bc_common.errors import BcError, ConfigError
from bc_common.extras import install_hint, missing_modules
from bc_common.tool_config import ToolSpec

from .auth import check_worker_url, token_from_env
from .guard import Limits
from .loading import load_specs
from .ray_actor import ToolWorkerActor
from .supervisor import get_json

log = logging.getLogger("bc_toolserve.ray")
TOKEN_ENV = "BC_TOOLSERVE_TOKEN"
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([KMGT]i?B?|B)?\s*$", re.IGNORECASE)


class RayWorkerError(BcError):
    """A worker actor that cannot run (it failed while starting, so Ray does not restart it) or never registered."""

    exit_code = 2


def parse_memory(text: str | int | None) -> int | None:
    """Bytes from `2G`, `512Mi`, `1.5GB` or a plain byte count (binary units: Ray counts memory in bytes)."""
    if text is None or isinstance(text, int):
        return text
    match = _SIZE.match(str(text))
    if not match:
        raise ConfigError(f"--memory: {text!r} is not a size (examples: 2G, 512M, 1073741824)")
    unit = (match.group(2) or "B")[0].upper()
    return int(float(match.group(1)) * 1024 ** "BKMGT".index(unit))


def require_ray() -> None:
    """Fail with the install hint when Ray is missing (the `ray` extra)."""
    if missing_modules(["ray"]):
        raise ConfigError(f"Ray is not installed: {install_hint('ray')}")


class RayToolWorkers:
    """`n` tool-worker actors on the Ray cluster this process is connected to (`ray.init` is called with
    `address` unless Ray is already initialised), each requesting `num_cpus` CPUs and `memory` bytes."""

    def __init__(self, master_url: str, tools: str | list[ToolSpec], n: int = 1, *, num_cpus: float = 1.0,
                 memory: int | None = None, worker_id: str = "ray", instance_ttl: float = 3600.0,
                 host: str | None = None, limits: Limits | None = None, address: str | None = None,
                 registry: str | None = None, log_level: str = "INFO"):
        require_ray()
        try:
            self.master_url = check_worker_url(master_url)
        except ValueError as exc:
            raise ConfigError(f"--master-url: {exc}") from None
        if n < 1 or num_cpus < 0 or (memory is not None and memory <= 0):
            raise ConfigError("need n >= 1, num_cpus >= 0 and memory > 0 bytes")
        self.specs = tools if isinstance(tools, list) else load_specs(tools, registry)
        self.n, self.num_cpus, self.memory, self.prefix = n, num_cpus, memory, worker_id
        self.actor_args = dict(instance_ttl=instance_ttl, host=host, limits=limits, log_level=log_level)
        self.address = address
        self.actors: list[Any] = []

    def start(self) -> RayToolWorkers:
        """Place the actors (they register with the master by themselves); returns self."""
        import ray

        if not ray.is_initialized():
            try:
                ray.init(address=self.address or "auto", log_to_driver=True, configure_logging=False)
            except ConnectionError as exc:
                raise RayWorkerError(f"--address {self.address or 'auto'}: no Ray cluster there ({exc})") from None
        token = token_from_env()
        # the token reaches the actors as an environment variable of their runtime env, never as an argument
        runtime_env = {"env_vars": {TOKEN_ENV: token}} if token else None
        remote = ray.remote(ToolWorkerActor).options(
            num_cpus=self.num_cpus, memory=self.memory, max_restarts=-1, max_task_retries=0,
            runtime_env=runtime_env)
        specs = [dataclasses.replace(s, cls=None) for s in self.specs]  # a class travels as its dotted name
        self.actors = [remote.remote(self.master_url, specs, i, self.prefix, **self.actor_args)
                       for i in range(self.n)]
        return self

    def describe(self, timeout: float = 30.0) -> list[dict]:
        """Each actor's current incarnation: worker id, URL, pid (waits for actors that Ray is restarting)."""
        import ray

        deadline = time.monotonic() + timeout
        while True:
            try:
                return ray.get([a.describe.remote() for a in self.actors],
                               timeout=max(0.1, deadline - time.monotonic()))
            except ray.exceptions.ActorUnavailableError:  # Ray is restarting it: ask again
                if time.monotonic() > deadline:
                    raise TimeoutError(f"a Ray worker actor still restarting after {timeout:g}s") from None
                time.sleep(0.2)
            except ray.exceptions.GetTimeoutError:
                raise TimeoutError(f"Ray worker actors did not answer within {timeout:g}s") from None
            except ray.exceptions.RayActorError as exc:  # it failed at start (its tools, its bind): Ray gives up
                cause = [line.strip() for line in str(exc).splitlines() if line.strip()]
                raise RayWorkerError(f"a Ray worker actor died: {cause[-1] if cause else type(exc).__name__}"
                                     ) from None

    def wait_registered(self, timeout: float = 60.0) -> list[str]:
        """Wait until the master lists every actor's current worker alive; returns their worker ids."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            ids = [d["worker_id"] for d in self.describe(max(left, 1.0))]
            health = get_json(f"{self.master_url}/health", any_status=True) or {}
            alive = {w.get("worker_id") for w in health.get("workers", []) if w.get("status") == "alive"}
            if set(ids) <= alive:
                return ids
            if left <= 0:
                raise RayWorkerError(f"workers {sorted(set(ids) - alive)} not registered with {self.master_url} "
                                     f"after {timeout:g}s (is the master up, with the same token?)")
            time.sleep(0.1)

    def stop(self, grace: float = 10.0) -> None:
        """Stop every worker (instances released, as on SIGTERM), then remove the actors for good."""
        import ray

        if not self.actors:
            return
        try:
            ray.get([a.stop.remote(grace) for a in self.actors], timeout=grace + 5)
        except Exception as exc:  # a dead or stuck actor is killed below all the same
            log.warning("not every Ray worker stopped cleanly: %s", type(exc).__name__)
        for actor in self.actors:
            ray.kill(actor, no_restart=True)
        self.actors = []

    def __enter__(self) -> RayToolWorkers:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def run_ray(address: str | None, master_url: str, tools: str | None, registry: str | None, n: int,
            num_cpus: float, memory: str | None, worker_id: str, instance_ttl: float, host: str | None,
            limits: Limits | None, log_level: str = "INFO", poll: float = 2.0) -> int:
    """`bc-toolserve ray`: place the workers, log each restart Ray makes, and remove them on SIGINT/SIGTERM."""
    workers = RayToolWorkers(master_url, tools, n, num_cpus=num_cpus, memory=parse_memory(memory),
                             worker_id=worker_id, instance_ttl=instance_ttl, host=host, limits=limits,
                             address=address, registry=registry, log_level=log_level)
    try:
        workers.start()
        known = workers.wait_registered()
        log.info("%d Ray workers registered with %s: %s", n, workers.master_url, ", ".join(known))
        while True:
            time.sleep(poll)
            try:
                current = [d["worker_id"] for d in workers.describe(timeout=60.0)]
            except TimeoutError as exc:  # a slow restart is Ray's to finish, not a reason to stop the others
                log.warning("%s", exc)
                continue
            for old, new in zip(known, current, strict=True):
                if old != new:
                    log.warning("Ray restarted worker %s as %s", old, new)
            known = current
    finally:
        workers.stop()
