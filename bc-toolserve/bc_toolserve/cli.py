"""`bc-toolserve`: master, worker, unified and config commands (the seed's `--mode` and flag spellings work too)."""
from __future__ import annotations

import functools
import logging
import os
import sys
from pathlib import Path

import click

from bc_common.cli import BcGroup
from bc_common.cli_options import DAY, Count, Number, seed_option
from bc_common.sandbox import CONCURRENCY_ENV

from .protocol import DEFAULT_MAX_BODY

EPILOG = """\b
Examples:
  bc-toolserve master --port 8000
  bc-toolserve worker --master-url http://10.0.0.5:8000 --tools tools.yaml -n 4 --host 0.0.0.0
  bc-toolserve unified --tools arithmetic -n 2 --test
  bc-toolserve config tools.yaml --master-url http://10.0.0.5:8000 > remote.yaml
  bc-toolserve mcp --bootcamp minesweeper --seed 7 --index 3          # one task's tools over MCP stdio
\b
Set BC_TOOLSERVE_TOKEN to require `Authorization: Bearer <token>` (mandatory beyond 127.0.0.1).
A failed `unified --test` exits 1; a server stopped by SIGINT or SIGTERM exits 130 once its children are gone."""

PORT = Count(0, 65535)
WORKERS = Count(1, 1024)
MAX_WORKERS = 100_000
HEARTBEAT = Number(0.05, 3600)
QUERY_TIMEOUT = Number(0, DAY, min_open=True)
CONNECTIONS = Count(0, 10_000_000)
CONNECTIONS_PER_CLIENT = Count(1, 10_000_000)

SEED_MODES = {"master", "worker", "unified"}


def _rewrite_seed_mode(argv: list[str]) -> list[str]:
    """`--mode X ...` (the seed's spelling) becomes the subcommand `X ...`."""
    for i, arg in enumerate(argv):
        if arg == "--mode" and i + 1 < len(argv) and argv[i + 1] in SEED_MODES:
            return [argv[i + 1]] + argv[:i] + argv[i + 2:]
        if arg.startswith("--mode=") and arg.split("=", 1)[1] in SEED_MODES:
            return [arg.split("=", 1)[1]] + argv[:i] + argv[i + 1:]
    return argv


@click.group("bc-toolserve", cls=BcGroup, epilog=EPILOG, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--log-level", default="INFO", show_default=True, help="Log level (logs go to stderr).")
def cli(log_level: str) -> None:
    """Serve bootcamp tools over HTTP: a master routes instances to workers on many machines."""
    from .server import setup_logging

    setup_logging(log_level)


def seed_flags(*, unified: bool = False):
    """The seed's flags that have no twin here: accepted, with a warning naming what replaces them
    (`unified` keeps `--test_timeout` and `--connectivity_only`, which mean there what they meant in the seed)."""
    def decorate(f):
        f = click.option("--updated_tool_class", "--updated-tool-class", "updated_tool_class", default=None,
                         help="Seed flag, ignored: generated configs use bc_common.remote_tool.RemoteTool.")(f)
        if not unified:
            f = click.option("--test_timeout", "--test-timeout", "test_timeout", default=None, hidden=True)(f)
            f = click.option("--connectivity_only", "--connectivity-only", "connectivity_only", is_flag=True,
                             default=None, hidden=True)(f)
        return f
    return decorate


def warn_seed_flags(updated_tool_class=None, test_timeout=None, connectivity_only=None) -> None:
    if updated_tool_class:
        click.echo(f"bc-toolserve: warning: --updated_tool_class {updated_tool_class} is ignored: generated "
                   f"configs use bc_common.remote_tool.RemoteTool (same tool schemas)", err=True)
    for flag, value in (("--test_timeout", test_timeout), ("--connectivity_only", connectivity_only)):
        if value:
            click.echo(f"bc-toolserve: warning: {flag} is ignored here: it applies to `unified --test`", err=True)


def connection_limits(f):
    """Bounds on what clients may hold (see bc_toolserve.guard); a `limits` argument reaches the command."""
    def wrapper(*args, max_connections, max_connections_per_client, header_timeout, **kwargs):
        from .guard import Limits

        return f(*args, limits=Limits(max_connections, max_connections_per_client, header_timeout), **kwargs)

    wrapper = functools.wraps(f)(wrapper)
    wrapper = click.option("--header-timeout", default=10.0, show_default=True, type=Number(0.1, 3600),
                           help="Seconds a client may take to send its request headers.")(wrapper)
    wrapper = click.option("--max-connections-per-client", default=8192, show_default=True,
                           type=CONNECTIONS_PER_CLIENT, help="Connections one client address may hold.")(wrapper)
    return click.option("--max-connections", default=0, show_default=True, type=CONNECTIONS,
                        help="Connections in all (0: from the file-descriptor limit). At a cap the oldest idle "
                             "connection is closed; only if all are busy is a new one refused (503).")(wrapper)


def tool_source(f):
    f = click.option("--registry", "--bootcamp_registry", "registry", type=click.Path(exists=True, dir_okay=False),
                     help="Bootcamp registry JSONL: serve the tools of every entry.")(f)
    return click.option("--tools", "--tools_yaml_path", "tools",
                        help="Bootcamp names (arithmetic,minesweeper) or a tool config YAML "
                             "(tools: [{class_name, config, tool_schema}]).")(f)


def mcp_options(f):
    f = click.option("--mcp-max-sessions-per-client", default=1024, show_default=True, type=Count(1, 10_000_000),
                     help="Live MCP sessions one client address may hold; beyond, a new one is refused (429).")(f)
    f = click.option("--mcp-max-sessions", default=4096, show_default=True, type=Count(1, 10_000_000),
                     help="Live MCP sessions in all (~44 KB each, plus their tool instances); beyond, a new one "
                          "is refused (503).")(f)
    f = click.option("--mcp-idle-ttl", default=1800.0, show_default=True, type=Number(0.05, 30 * DAY),
                     help="Idle seconds before an MCP session ends and its tool instances are released.")(f)
    return click.option("--tasks", "tasks", default=None, type=click.Path(exists=True, dir_okay=False),
                        help="Task file (JSONL/parquet) whose ids MCP sessions may choose (?task=ID).")(f)


@cli.command(epilog="\b\nExample:\n  BC_TOOLSERVE_TOKEN=s3cret bc-toolserve master --host 0.0.0.0 --port 8000")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=PORT)
@click.option("--heartbeat-interval", default=2.0, show_default=True, type=HEARTBEAT,
              help="Seconds between worker heartbeats; 3 missed = dead.")
@click.option("--timeout-per-query", "--timeout_per_query", default=60.0, show_default=True, type=QUERY_TIMEOUT)
@click.option("--max-body", default=DEFAULT_MAX_BODY, show_default=True, type=Count(1024, 1 << 31), help="Request body limit, bytes.")
@tool_source
@click.option("--output-dir", "--output_dir", default=None, help="Write remote_tool_config.yaml for --tools here.")
@click.option("--allow-worker-net", "allow_worker_net", multiple=True, metavar="CIDR",
              help="Accept workers on this network too (repeatable); default loopback only. Link-local, "
                   "multicast and unspecified addresses are never contacted.")
@click.option("--expect-workers", default=0, show_default=True, type=Count(0, MAX_WORKERS),
              help="/health answers 503 `starting` until this many workers are alive.")
@mcp_options
@connection_limits
@seed_flags()
def master(host, port, heartbeat_interval, timeout_per_query, max_body, tools, registry, output_dir,
           allow_worker_net, expect_workers, tasks, mcp_idle_ttl, mcp_max_sessions, mcp_max_sessions_per_client,
           limits, **seed):
    """Run the master: worker registry, routing, dashboard (/), /health, /metrics, MCP (/mcp)."""
    from .auth import parse_nets, token_from_env
    from .master import MasterSettings
    from .run import run_master

    warn_seed_flags(**seed)
    try:
        nets = parse_nets(allow_worker_net)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--allow-worker-net") from None
    settings = MasterSettings(token=token_from_env(), heartbeat_interval=heartbeat_interval,
                              timeout_per_query=timeout_per_query, max_body=max_body, allow_worker_nets=nets,
                              expect_workers=expect_workers, mcp_idle_ttl=mcp_idle_ttl,
                              mcp_max_sessions=mcp_max_sessions, mcp_max_sessions_per_client=mcp_max_sessions_per_client)
    run_master(host, port, settings, tools, registry, output_dir, tasks, limits)


def _sandbox_concurrency(ctx: click.Context, param: click.Parameter, value: int | None) -> None:
    if value is not None:  # read by bc_common.sandbox on first use, here and in the worker processes started
        os.environ[CONCURRENCY_ENV] = str(value)


sandbox_concurrency = click.option(
    "--sandbox-concurrency", type=Count(1, 4096), default=None, metavar="N", expose_value=False,
    callback=_sandbox_concurrency,
    help="At most N sandboxed runs (run_python, run_tests, shell, sql) at once per worker process; further calls "
         "wait for a slot. Default: 4 per CPU ($BC_SANDBOX_CONCURRENCY).")


@cli.command(epilog="\b\nExample:\n  bc-toolserve worker --master-url http://127.0.0.1:8000 --tools tools.yaml -n 3")
@click.option("--master-url", "--master_url", required=True, help="The master's URL.")
@tool_source
@click.option("-n", "--workers", "--num_workers", "n", default=1, show_default=True, type=WORKERS,
              help="Worker processes to start.")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=0, show_default=True, type=PORT, help="First port (0: any free port).")
@click.option("--worker-id", "--worker_id", default=None, help="Worker id (default host-pid; -i appended for -n > 1).")
@click.option("--advertise-url", default=None, help="URL the master and clients use to reach this worker.")
@click.option("--instance-ttl", default=3600.0, show_default=True, type=Number(0, 30 * DAY, min_open=True), help="Idle seconds before an instance is released.")
@click.option("--log-dir", "--log_dir", default=None, help="With -n > 1: one log file per worker here.")
@connection_limits
@sandbox_concurrency
@seed_flags()
def worker(master_url, tools, registry, n, host, port, worker_id, advertise_url, instance_ttl, log_dir, limits,
           **seed):
    """Run worker(s) that serve the tools and register with the master."""
    from .run import run_worker

    warn_seed_flags(**seed)
    return run_worker(master_url, tools, registry, n, host, port, worker_id, advertise_url, instance_ttl, log_dir,
                      limits)


@cli.command("ray", epilog="""\b
Example:
  BC_TOOLSERVE_TOKEN=... bc-toolserve ray --address 10.0.0.5:6379 --master-url http://10.0.0.5:8000 \\
      --tools arithmetic -n 16 --num-cpus 1 --memory 2G
\b
Each worker is a Ray actor (the `ray` extra) registered with the master like a hand-started one; Ray restarts a
killed actor as a new worker. SIGINT or SIGTERM stops and removes them.""")
@click.option("--address", default="auto", show_default=True, help="The Ray cluster (ray.init's address).")
@click.option("--master-url", "--master_url", required=True, help="The master's URL.")
@tool_source
@click.option("-n", "--workers", "n", default=1, show_default=True, type=WORKERS, help="Worker actors to place.")
@click.option("--num-cpus", default=1.0, show_default=True, type=Number(0, 1024), help="CPUs Ray reserves per actor.")
@click.option("--memory", default=None, help="Memory Ray reserves per actor (2G, 512M, bytes); default none.")
@click.option("--host", default=None, help="Address to bind on each node (default: the node's Ray address).")
@click.option("--worker-id", "--worker_id", default="ray", show_default=True,
              help="Worker id prefix: workers are PREFIX-INDEX-PID.")
@click.option("--instance-ttl", default=3600.0, show_default=True, type=Number(0, 30 * DAY, min_open=True),
              help="Idle seconds before an instance is released.")
@connection_limits
def ray(address, master_url, tools, registry, n, num_cpus, memory, host, worker_id, instance_ttl, limits):
    """Run tool workers as Ray actors on an existing Ray cluster, registered with the master."""
    from .ray_workers import run_ray

    return run_ray(address, master_url, tools, registry, n, num_cpus, memory, worker_id, instance_ttl, host,
                   limits, logging.getLevelName(logging.getLogger().level))


@cli.command(epilog="\b\nExample:\n  bc-toolserve unified --tools tools.yaml -n 4 --port 8000 --log-dir logs/")
@tool_source
@click.option("-n", "--workers", "--num_workers", "n", default=3, show_default=True, type=WORKERS)
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=PORT, help="Master port.")
@click.option("--log-dir", "--log_dir", default=None, help="One log file per process here (default: stderr).")
@click.option("--test", "--test_servers", "test", is_flag=True, help="Create/release one instance per tool once ready.")
@click.option("--keep-running", "--keep_running", is_flag=True, help="With --test: keep serving after the test.")
@click.option("--heartbeat-interval", default=2.0, show_default=True, type=HEARTBEAT)
@click.option("--timeout-per-query", "--timeout_per_query", default=60.0, show_default=True, type=QUERY_TIMEOUT)
@click.option("--output-dir", "--output_dir", default=None, help="Write remote_tool_config.yaml here.")
@click.option("--test-timeout", "--test_timeout", default=10.0, show_default=True, type=QUERY_TIMEOUT,
              help="With --test: seconds each test request may take.")
@click.option("--connectivity-only", "--connectivity_only", is_flag=True,
              help="With --test: only check that a live worker serves every tool (no instance created).")
@mcp_options
@connection_limits
@sandbox_concurrency
@seed_flags(unified=True)
def unified(tools, registry, n, host, port, log_dir, test, keep_running, heartbeat_interval, timeout_per_query,
            output_dir, test_timeout, connectivity_only, tasks, mcp_idle_ttl, mcp_max_sessions,
            mcp_max_sessions_per_client, updated_tool_class, limits):
    """Run a master and N workers on this machine, supervised (restart on crash, clean stop on SIGTERM).
    Ready (`/health` 200 `ok`) once the N workers registered; 503 `starting` before."""
    from .run import run_unified

    warn_seed_flags(updated_tool_class)
    mcp_args = (("--tasks", str(Path(tasks).resolve())) if tasks else ()) + (
        "--mcp-idle-ttl", str(mcp_idle_ttl), "--mcp-max-sessions", str(mcp_max_sessions),
        "--mcp-max-sessions-per-client", str(mcp_max_sessions_per_client))
    return run_unified(tools, registry, n, host, port, log_dir, test, keep_running, heartbeat_interval,
                       timeout_per_query, output_dir, test_timeout=test_timeout,
                       connectivity_only=connectivity_only, master_args=mcp_args, limits=limits)


@cli.command(epilog="\b\nExample:\n  bc-toolserve config tools.yaml --master-url http://10.0.0.5:8000 > remote.yaml")
@click.argument("tool_config")
@click.option("--master-url", "--master_url", required=True)
@click.option("--timeout-per-query", "--timeout_per_query", default=60.0, show_default=True, type=QUERY_TIMEOUT)
@seed_flags()
def config(tool_config, master_url, timeout_per_query, **seed):
    """Print a tool config whose tools call the server (RemoteTool), same schemas."""
    warn_seed_flags(**seed)
    from .auth import check_worker_url
    from .config_gen import remote_config_yaml
    from .loading import load_specs

    try:
        url = check_worker_url(master_url)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--master-url") from None
    sys.stdout.write(remote_config_yaml(load_specs(tool_config), url, timeout_per_query))


@cli.command("mcp", epilog="""\b
Examples:
  bc-toolserve mcp --bootcamp arithmetic --seed 7 --index 3
  bc-toolserve mcp --tasks tasks.jsonl --task arithmetic-5f0c2a8e31b7d904
\b
An MCP client starts it as a subprocess (stdio transport). tools/list gives the task's tools, tools/call runs them
(state kept until the client disconnects), the prompt 'task' is the task's prompt; the answer is never sent.""")
@click.option("--bootcamp", default=None, help="Bootcamp of the task.")
@seed_option(help="Base seed of the task set.")
@click.option("--index", default=None, type=Count(0, 10**12), help="Index of the task in its set.")
@click.option("--split", default="train", show_default=True)
@click.option("--group", default=None, help="Generator group (for tasks generated with --group).")
@click.option("--task", "task", default=None, help="Task id (of --tasks, or checked against the generated task).")
@click.option("--tasks", "tasks", default=None, type=click.Path(exists=True, dir_okay=False),
              help="Task file to choose --task from.")
def mcp(bootcamp, seed, index, split, group, task, tasks):
    """Serve one task's tools to an MCP client over stdio (the official MCP SDK; the `mcp` extra)."""
    from .mcp_session import load_tasks
    from .mcp_stdio import serve_stdio

    query = {"bootcamp": bootcamp, "seed": str(seed), "index": None if index is None else str(index),
             "split": split, "group": group, "task": task}
    if task and not bootcamp:
        query = {"task": task}
    serve_stdio({k: v for k, v in query.items() if v is not None}, load_tasks(tasks) if tasks else None)


def main(argv: list[str] | None = None) -> None:
    args = _rewrite_seed_mode(list(sys.argv[1:] if argv is None else argv))
    cli.main(args=args, prog_name="bc-toolserve")
