"""Reference, noisy and every declared baseline of one bootcamp, per group, played through the rollout loop.

    python bench/signal_scores.py holdem -n 100 --seed 5 [--groups river_turn,early] [--policies reference,fold]
    python bench/signal_scores.py robot_arm -n 30 --seed 11 --split signal --set max_obstacles=8  # as conformance

Prints one line per (group, policy): mean reward, success (score 1.0) and mean assistant turns + tool calls.
The figures each bootcamp README states in its reward section come from this script.
"""
from __future__ import annotations

import argparse
import asyncio
import time
from typing import Any

import yaml

from bc_common.builtin_model import BuiltinModel
from bc_common.catalog import get_bootcamp
from bc_common.environment import Environments
from bc_common.rollout import run_trajectory
from bc_common.tasks import TaskSet


def effort(trajectory: dict[str, Any]) -> int:
    mine = [m for m in trajectory["messages"] if m.get("role") == "assistant"]
    return len(mine) + sum(len(m.get("tool_calls") or []) for m in mine)


async def play(rows: list[dict[str, Any]], model: str) -> list[dict[str, Any]]:
    envs = Environments()
    sem = asyncio.Semaphore(16)

    async def one(row: dict[str, Any]) -> dict[str, Any]:
        async with sem:
            return await run_trajectory(row, 0, BuiltinModel(model), envs.get(row["data_source"]), model_name=model)

    return list(await asyncio.gather(*(one(r) for r in rows)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("bootcamp")
    parser.add_argument("-n", type=int, default=100)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--split", default="test", help="the conformance suite plays split 'signal', seed 11")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="a generator parameter for every group (a YAML value), as bc-gen --set")
    parser.add_argument("--groups", default="")
    parser.add_argument("--policies", default="", help="reference, noisy and baseline names (default: all)")
    args = parser.parse_args()
    bc = get_bootcamp(args.bootcamp)
    params = {k: yaml.safe_load(v) for k, _, v in (item.partition("=") for item in args.set)}
    groups = [g for g in args.groups.split(",") if g] or [g.name for g in bc.group_list() if g.ratio > 0]
    policies = [p for p in args.policies.split(",") if p] or ["reference", "noisy", *(b.name for b in bc.baselines)]
    for group in groups:
        started = time.perf_counter()
        tasks = TaskSet(bc, seed=args.seed, split=args.split, groups=[group], params=params)
        rows = [tasks[i] for i in range(args.n)]
        print(f"# {args.bootcamp} {group}: {args.n} tasks in {time.perf_counter() - started:.1f} s", flush=True)
        for policy in policies:
            model = f"builtin:{policy}" if policy in ("reference", "noisy") else f"builtin:baseline/{policy}"
            started = time.perf_counter()
            runs = asyncio.run(play(rows, model))
            scores = [float(r["score"] or 0.0) for r in runs]
            mean = sum(scores) / len(scores)
            success = sum(s >= 1.0 for s in scores) / len(scores)
            work = sum(effort(r) for r in runs) / len(runs)
            print(f"{group:>12} {policy:>14}: mean {mean:.3f}  success {success:.3f}  effort {work:.2f}  "
                  f"({time.perf_counter() - started:.1f} s)", flush=True)


if __name__ == "__main__":
    main()
