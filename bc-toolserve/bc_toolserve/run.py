"""Start the three modes: a master, one or more workers, or both supervised together (`unified`)."""
from __future__ import annotations

import logging
import os
import socket
import sys

from bc_common.errors import ConfigError

from .auth import check_bind, check_worker_url, token_from_env
from .config_gen import check_remote_config_target, write_remote_config
from .guard import Limits
from .loading import instantiate, load_specs
from .master import Master, MasterSettings
from .registration import stay_registered
from .server import bind, freeze_heap, serve, url_of
from .supervisor import Supervisor, get_json
from .worker import Worker, WorkerSettings

log = logging.getLogger("bc_toolserve")


def run_master(host: str = "127.0.0.1", port: int = 8000, settings: MasterSettings | None = None,
               tools: str | None = None, registry: str | None = None, output_dir: str | None = None,
               tasks: str | None = None, limits: Limits | None = None) -> None:
    """Serve the master until SIGINT/SIGTERM. With tools and `output_dir`, write the remote tool config too;
    with `tasks` (a task file), MCP sessions may choose its tasks by id."""
    from .mcp_session import load_tasks

    check_remote_config_target(output_dir, tools, registry)
    settings = settings or MasterSettings(token=token_from_env())
    tasks_by_id = load_tasks(tasks) if tasks else None  # a bad task file fails before the port is taken
    sock = bind(host, port, settings.token)
    url = url_of(sock, host)
    if output_dir and (tools or registry):
        path = write_remote_config(load_specs(tools, registry), url, output_dir, settings.timeout_per_query)
        log.info("remote tool config written to %s", path)
    log.info("bc-toolserve master listening on %s (auth %s)", url, "on" if settings.token else "off")
    app = Master(settings, tasks_by_id).app()
    freeze_heap()
    serve(app, sock, limits)


def default_worker_id() -> str:
    return f"{socket.gethostname()}-{os.getpid()}"


def run_worker(master_url: str, tools: str | None = None, registry: str | None = None, n: int = 1,
               host: str = "127.0.0.1", port: int = 0, worker_id: str | None = None,
               advertise_url: str | None = None, instance_ttl: float = 3600.0, log_dir: str | None = None,
               limits: Limits | None = None) -> int:
    """Serve `n` workers registered with `master_url`; with n > 1 each runs in its own supervised process."""
    token = token_from_env()
    try:
        master_url = check_worker_url(master_url)
    except ValueError as exc:
        raise ConfigError(f"--master-url: {exc}") from None
    check_bind(host, token)
    specs = load_specs(tools, registry)
    worker_id = worker_id or default_worker_id()
    if n > 1:
        supervisor = Supervisor(log_dir)
        for i in range(n):
            argv = [sys.executable, "-m", "bc_toolserve", "worker", "--master-url", master_url,
                    "--tools" if tools else "--registry", str(tools or registry), "-n", "1", "--host", host,
                    "--port", str(free_port(host, port + i) if port else 0), "--worker-id", f"{worker_id}-{i}",
                    "--instance-ttl", str(instance_ttl), *limit_args(limits)]
            supervisor.spawn(f"worker-{i}", argv)
        supervisor.run_until_signal()
        return 0
    if advertise_url:
        try:
            advertise_url = check_worker_url(advertise_url)
        except ValueError as exc:
            raise ConfigError(f"--advertise-url: {exc}") from None
    sock = bind(host, port, token)
    self_url = advertise_url or url_of(sock, host)
    worker = Worker(instantiate(specs), WorkerSettings(worker_id, token, instance_ttl))
    worker.background.append(lambda: stay_registered(worker, master_url, self_url, token))
    log.info("bc-toolserve worker %r on %s serving %s", worker_id, self_url, ", ".join(sorted(worker.tools)))
    app = worker.app()
    freeze_heap()
    serve(app, sock, limits)
    return 0


def limit_args(limits: Limits | None) -> list[str]:
    """The connection-limit flags that give a child process the same `limits`."""
    if limits is None:
        return []
    return ["--max-connections", str(limits.max_connections), "--max-connections-per-client",
            str(limits.max_per_client), "--header-timeout", str(limits.header_timeout)]


def free_port(host: str, start: int) -> int:
    """The first port >= start that can be bound on `host` (the seed's "smart" port allocation)."""
    for port in range(start, min(start + 1000, 65536)):
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            try:
                probe.bind((host, port))
                return port
            except OSError:
                continue
    raise ConfigError(f"no free port on {host} from {start}")


def smoke_test(master_url: str, tool_names: list[str], token: str | None, timeout: float = 10.0,
               connectivity_only: bool = False) -> list[tuple[str, bool, str]]:
    """Create and release one instance of every tool through the master (`connectivity_only`: only check that
    the master answers and a live worker serves each tool, the seed's `--connectivity_only`)."""
    results = []
    if connectivity_only:
        tools = (get_json(f"{master_url}/health", timeout=timeout, any_status=True) or {}).get("tools", {})
        return [(name, tools.get(name, {}).get("workers", 0) > 0, f"{tools.get(name, {}).get('workers', 0)} live "
                 f"workers") for name in tool_names]
    for name in tool_names:
        created = get_json(f"{master_url}/{name}/create", token, timeout=timeout, body={})
        if not created or "instance_id" not in created:
            results.append((name, False, "create failed"))
            continue
        released = get_json(f"{master_url}/{name}/release", token, timeout=timeout,
                            body={"instance_id": created["instance_id"]})
        ok = bool(released and released.get("released"))
        results.append((name, ok, f"worker {created.get('worker_id')}" if ok else "release failed"))
    return results


def run_unified(tools: str | None = None, registry: str | None = None, n: int = 3, host: str = "127.0.0.1",
                port: int = 8000, log_dir: str | None = None, test: bool = False, keep_running: bool = False,
                heartbeat_interval: float = 2.0, timeout_per_query: float = 60.0, output_dir: str | None = None,
                ready_timeout: float = 60.0, test_timeout: float = 10.0, connectivity_only: bool = False,
                master_args: tuple[str, ...] = (), limits: Limits | None = None) -> int:
    """A master and `n` workers on this machine, supervised: ready checks, crash restarts, clean stop.
    `master_args`: more flags of `bc-toolserve master` (its MCP endpoint's `--tasks`, `--mcp-*` flags)."""
    token = token_from_env()
    check_bind(host, token)
    check_remote_config_target(output_dir, tools, registry, log_dir)
    specs = load_specs(tools, registry)
    port = port or free_port(host, 8000)
    bind(host, port, token).close()  # a busy port fails here, clearly, not as a master that dies at start
    local = "127.0.0.1" if host in ("0.0.0.0", "") else ("[::1]" if host == "::" else host)
    master_url = f"http://{local}:{port}"
    me = [sys.executable, "-m", "bc_toolserve"]
    supervisor = Supervisor(log_dir)
    try:
        if host in ("0.0.0.0", "::", ""):  # workers then advertise this machine's address, not loopback
            master_args += ("--allow-worker-net", socket.gethostbyname(socket.gethostname()))
        master = supervisor.spawn("master", me + ["master", "--host", host, "--port", str(port),
                                                  "--heartbeat-interval", str(heartbeat_interval),
                                                  "--timeout-per-query", str(timeout_per_query),
                                                  "--expect-workers", str(n), *master_args,
                                                  *limit_args(limits)])
        # up means answering at all: /health says 503 `starting` until the n workers registered
        supervisor.wait_ready(master, lambda: get_json(f"{master_url}/health", any_status=True) is not None,
                              ready_timeout)
        ids = [f"unified-{i}" for i in range(n)]
        source = ["--tools", str(tools)] if tools else ["--registry", str(registry)]
        workers = [supervisor.spawn(wid, me + ["worker", "--master-url", master_url, *source, "-n", "1",
                                               "--host", host, "--port", "0", "--worker-id", wid,
                                               *limit_args(limits)])
                   for wid in ids]

        def all_alive() -> bool:
            return (get_json(f"{master_url}/health") or {}).get("status") == "ok"  # 200 once n workers are alive

        supervisor.wait_all_ready(workers, all_alive, ready_timeout)
    except BaseException:
        supervisor.stop()
        raise
    log.info("bc-toolserve unified ready: master %s, %d workers, tools %s", master_url, n,
             ", ".join(s.name for s in specs))
    if output_dir:
        log.info("remote tool config written to %s",
                 write_remote_config(specs, master_url, output_dir, timeout_per_query))
    if test:
        results = smoke_test(master_url, [s.name for s in specs], token, test_timeout, connectivity_only)
        for name, ok, message in results:
            log.info("test %s: %s (%s)", name, "ok" if ok else "FAILED", message)
        if not keep_running:
            supervisor.stop()
            return 0 if all(ok for _, ok, _ in results) else 1
    supervisor.run_until_signal()
    return 0
