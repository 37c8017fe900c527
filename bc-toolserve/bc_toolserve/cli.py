"""`bc-toolserve`: master, worker, unified and config commands (the seed's `--mode` and flag spellings work too)."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from bc_common.cli import BcGroup

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
Exit codes: 0 ok, 1 failed self-test or runtime error, 2 bad configuration or flags."""

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


def tool_source(f):
    f = click.option("--registry", "--bootcamp_registry", "registry", type=click.Path(exists=True, dir_okay=False),
                     help="Bootcamp registry JSONL: serve the tools of every entry.")(f)
    return click.option("--tools", "--tools_yaml_path", "tools",
                        help="Bootcamp names (arithmetic,minesweeper) or a tool config YAML "
                             "(tools: [{class_name, config, tool_schema}]).")(f)


def mcp_options(f):
    f = click.option("--mcp-idle-ttl", default=1800.0, show_default=True, type=click.FloatRange(min=0.05),
                     help="Idle seconds before an MCP session ends and its tool instances are released.")(f)
    return click.option("--tasks", "tasks", default=None, type=click.Path(exists=True, dir_okay=False),
                        help="Task file (JSONL/parquet) whose ids MCP sessions may choose (?task=ID).")(f)


@cli.command(epilog="\b\nExample:\n  BC_TOOLSERVE_TOKEN=s3cret bc-toolserve master --host 0.0.0.0 --port 8000")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=int)
@click.option("--heartbeat-interval", default=2.0, show_default=True, type=float,
              help="Seconds between worker heartbeats; 3 missed = dead.")
@click.option("--timeout-per-query", "--timeout_per_query", default=60.0, show_default=True, type=float)
@click.option("--max-body", default=DEFAULT_MAX_BODY, show_default=True, type=int, help="Request body limit, bytes.")
@tool_source
@click.option("--output-dir", "--output_dir", default=None, help="Write remote_tool_config.yaml for --tools here.")
@mcp_options
def master(host, port, heartbeat_interval, timeout_per_query, max_body, tools, registry, output_dir, tasks,
           mcp_idle_ttl):
    """Run the master: worker registry, routing, dashboard (/), /health, /metrics, MCP (/mcp)."""
    from .auth import token_from_env
    from .master import MasterSettings
    from .run import run_master

    settings = MasterSettings(token=token_from_env(), heartbeat_interval=heartbeat_interval,
                              timeout_per_query=timeout_per_query, max_body=max_body, mcp_idle_ttl=mcp_idle_ttl)
    run_master(host, port, settings, tools, registry, output_dir, tasks)


@cli.command(epilog="\b\nExample:\n  bc-toolserve worker --master-url http://127.0.0.1:8000 --tools tools.yaml -n 3")
@click.option("--master-url", "--master_url", required=True, help="The master's URL.")
@tool_source
@click.option("-n", "--workers", "--num_workers", "n", default=1, show_default=True, type=click.IntRange(1),
              help="Worker processes to start.")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=0, show_default=True, type=int, help="First port (0: any free port).")
@click.option("--worker-id", "--worker_id", default=None, help="Worker id (default host-pid; -i appended for -n > 1).")
@click.option("--advertise-url", default=None, help="URL the master and clients use to reach this worker.")
@click.option("--instance-ttl", default=3600.0, show_default=True, type=float, help="Idle seconds before an instance is released.")
@click.option("--log-dir", "--log_dir", default=None, help="With -n > 1: one log file per worker here.")
def worker(master_url, tools, registry, n, host, port, worker_id, advertise_url, instance_ttl, log_dir):
    """Run worker(s) that serve the tools and register with the master."""
    from .run import run_worker

    sys.exit(run_worker(master_url, tools, registry, n, host, port, worker_id, advertise_url, instance_ttl, log_dir))


@cli.command(epilog="\b\nExample:\n  bc-toolserve unified --tools tools.yaml -n 4 --port 8000 --log-dir logs/")
@tool_source
@click.option("-n", "--workers", "--num_workers", "n", default=3, show_default=True, type=click.IntRange(1))
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=int, help="Master port.")
@click.option("--log-dir", "--log_dir", default=None, help="One log file per process here (default: stderr).")
@click.option("--test", "--test_servers", "test", is_flag=True, help="Create/release one instance per tool once ready.")
@click.option("--keep-running", "--keep_running", is_flag=True, help="With --test: keep serving after the test.")
@click.option("--heartbeat-interval", default=2.0, show_default=True, type=float)
@click.option("--timeout-per-query", "--timeout_per_query", default=60.0, show_default=True, type=float)
@click.option("--output-dir", "--output_dir", default=None, help="Write remote_tool_config.yaml here.")
@mcp_options
def unified(tools, registry, n, host, port, log_dir, test, keep_running, heartbeat_interval, timeout_per_query,
            output_dir, tasks, mcp_idle_ttl):
    """Run a master and N workers on this machine, supervised (restart on crash, clean stop on SIGTERM)."""
    from .run import run_unified

    mcp_args = (("--tasks", str(Path(tasks).resolve())) if tasks else ()) + ("--mcp-idle-ttl", str(mcp_idle_ttl))
    sys.exit(run_unified(tools, registry, n, host, port, log_dir, test, keep_running, heartbeat_interval,
                         timeout_per_query, output_dir, master_args=mcp_args))


@cli.command(epilog="\b\nExample:\n  bc-toolserve config tools.yaml --master-url http://10.0.0.5:8000 > remote.yaml")
@click.argument("tool_config")
@click.option("--master-url", "--master_url", required=True)
@click.option("--timeout-per-query", "--timeout_per_query", default=60.0, show_default=True, type=float)
def config(tool_config, master_url, timeout_per_query):
    """Print a tool config whose tools call the server (RemoteTool), same schemas."""
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
@click.option("--seed", default=0, show_default=True, type=click.IntRange(0), help="Base seed of the task set.")
@click.option("--index", default=None, type=click.IntRange(0), help="Index of the task in its set.")
@click.option("--split", default="train", show_default=True)
@click.option("--group", default=None, help="Generator group (for tasks generated with --group).")
@click.option("--task", "task", default=None, help="Task id (of --tasks, or checked against the generated task).")
@click.option("--tasks", "tasks", default=None, type=click.Path(exists=True, dir_okay=False),
              help="Task file to choose --task from.")
def mcp(bootcamp, seed, index, split, group, task, tasks):
    """Serve one task's tools to an MCP client over stdio (the official MCP SDK; the `mcp` extra)."""
    from .mcp_server import serve_stdio
    from .mcp_session import load_tasks

    query = {"bootcamp": bootcamp, "seed": str(seed), "index": None if index is None else str(index),
             "split": split, "group": group, "task": task}
    if task and not bootcamp:
        query = {"task": task}
    serve_stdio({k: v for k, v in query.items() if v is not None}, load_tasks(tasks) if tasks else None)


def main(argv: list[str] | None = None) -> None:
    args = _rewrite_seed_mode(list(sys.argv[1:] if argv is None else argv))
    cli.main(args=args, prog_name="bc-toolserve")
