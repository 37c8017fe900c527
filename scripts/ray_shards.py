"""Run a sharded bc-gen + bc-eval run as Ray tasks on an existing Ray cluster, one task per shard (each runs
`scripts/shard.sh K M OUT ...`), then concatenate the trajectories in shard order into OUT/runs.jsonl
(docs/scale.md). Ray places the tasks and retries those whose node died; we schedule nothing.

    python scripts/ray_shards.py --address auto --shards 64 --out /shared/run1 --num-cpus 4 \\
        -- arithmetic -n 100000 --seed 7 -- --model qwen3-8b --base-url http://10.0.0.9:8000/v1

Rerunning the same command resumes: finished shards return at once, a torn one continues (bc-eval --resume).
OUT and this checkout must be at the same path on every node (a shared file system).
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import click

SCRIPTS = Path(__file__).resolve().parent
SHARD, CONCAT = SCRIPTS / "shard.sh", SCRIPTS / "concat_shards.sh"


def run_shard(k: int, shards: int, out: str, gen_args: list[str], eval_args: list[str]) -> int:
    """One shard, as a Ray task: its exit status (stderr goes to the Ray worker's log and the driver)."""
    done = subprocess.run([str(SHARD), str(k), str(shards), out, *gen_args, "--", *eval_args],
                          stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    return done.returncode


def run_shards(address: str, shards: int, out: str, gen_args: list[str], eval_args: list[str],
               num_cpus: float = 1.0, memory: int | None = None) -> list[int]:
    """Every shard as a Ray task; returns the shards that failed (none: OUT/runs.jsonl is written)."""
    import ray

    out = str(Path(out).resolve())
    if not ray.is_initialized():
        ray.init(address=address, configure_logging=False)
    task = ray.remote(run_shard).options(num_cpus=num_cpus, memory=memory, max_retries=3)  # retries: node deaths
    statuses = ray.get([task.remote(k, shards, out, gen_args, eval_args) for k in range(shards)])
    failed = [k for k, status in enumerate(statuses) if status != 0]
    if not failed:
        subprocess.run([str(CONCAT), out, str(shards)], check=True)
    return failed


@click.command(context_settings={"help_option_names": ["-h", "--help"]}, epilog=__doc__)
@click.option("--address", default="auto", show_default=True, help="The Ray cluster (ray.init's address).")
@click.option("--shards", type=click.IntRange(1, 1_000_000), required=True, help="M: shards 0..M-1.")
@click.option("--out", required=True, help="Output folder on a file system every node sees.")
@click.option("--num-cpus", type=click.FloatRange(0), default=1.0, show_default=True, help="CPUs per shard task.")
@click.option("--memory", type=click.IntRange(1), default=None, help="Memory per shard task, bytes.")
@click.argument("args", nargs=-1, required=True)
def main(address, shards, out, num_cpus, memory, args):
    """ARGS: bc-gen's arguments (no --shard), `--`, bc-eval's arguments (no -o, no --resume)."""
    args = list(args)
    if "--" not in args:
        raise click.UsageError("give bc-gen's arguments, then --, then bc-eval's (example in --help)")
    cut = args.index("--")
    failed = run_shards(address, shards, out, args[:cut], args[cut + 1:], num_cpus, memory)
    if failed:
        click.echo(f"ray_shards: shards {failed} failed (their logs above); rerun to resume them", err=True)
        sys.exit(1)
    click.echo(f"ray_shards: {shards} shards done: {Path(out, 'runs.jsonl')}", err=True)


if __name__ == "__main__":
    main()
