"""The sandbox's cost: print(1) in bubblewrap vs a bare subprocess, where the time goes, 100 concurrent runs, and
code_function tasks generated and reference-verified.

    python bench/sandbox.py [--runs 20] [--concurrent 100] [--tasks 1000]

Ratios are to the bare `subprocess.run([python, "-c", "print(1)"])` measured in the same run (target <= 1.5x).
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import time

from bc_common import sandbox as sb
from bc_common.sandbox import Limits, python_executable, sandbox_for, workspace


def median_ms(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return 1000 * statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--concurrent", type=int, default=100)
    parser.add_argument("--tasks", type=int, default=1000)
    args = parser.parse_args()
    python = python_executable()
    box = sandbox_for()
    limits = Limits(wall_s=60)
    with workspace() as folder:
        bare = median_ms(lambda: subprocess.run([python, "-c", "print(1)"], capture_output=True, check=True),
                         args.runs)
        bare_isolated = median_ms(lambda: subprocess.run([python, "-I", "-S", "-c", "print(1)"], capture_output=True,
                                                         check=True), args.runs)
        boxed = median_ms(lambda: box.run_blocking([python, "-c", "print(1)"], workspace=folder, limits=limits),
                          args.runs)
        boxed_isolated = median_ms(lambda: box.run_blocking([python, "-I", "-S", "-c", "print(1)"], workspace=folder,
                                                            limits=limits), args.runs)
        true_ms = median_ms(lambda: box.run_blocking(["/bin/true"], workspace=folder, limits=limits), args.runs)
        scan = median_ms(lambda: sb._processes_of(610_511), args.runs)
        chown = median_ms(lambda: sb._hand_over(folder, 610_511) if sb.os.geteuid() == 0 else None, args.runs)
    print(f"print(1) bare subprocess        {bare:7.1f} ms  1.00x")
    print(f"print(1) in bubblewrap          {boxed:7.1f} ms  {boxed / bare:.2f}x")
    print(f"print(1) -I -S bare / boxed     {bare_isolated:7.1f} / {boxed_isolated:.1f} ms  "
          f"{boxed_isolated / bare:.2f}x of the plain bare run (the runners' flags)")
    print(f"/bin/true in bubblewrap         {true_ms:7.1f} ms  (bwrap + uid + reaping, no Python)")
    print(f"  /proc scan (reaping check)    {scan:7.2f} ms")
    print(f"  workspace hand-over (chown)   {chown:7.2f} ms")

    async def many() -> list:
        async def one(i: int):
            with workspace() as folder:
                return await box.run([python, "-c", f"print({i})"], workspace=folder, limits=limits)

        return await asyncio.gather(*(one(i) for i in range(args.concurrent)))

    started = time.perf_counter()
    results = asyncio.run(many())
    took = time.perf_counter() - started
    failed = [r for r in results if not r.ok]
    print(f"{args.concurrent} concurrent runs: {len(failed)} failed, {took:.1f} s "
          f"({args.concurrent / took:.1f} runs/s), leftovers {sum(r.leftover_processes for r in results)}")

    from bc_common.tasks import TaskSet
    from bootcamps.code_function.families import FAMILIES
    from bootcamps.code_function.reward import CodeFunctionRewardCalculator

    started = time.perf_counter()
    rows = TaskSet("code_function", seed=1)
    tasks = [rows[i] for i in range(args.tasks)]
    generated = time.perf_counter() - started

    async def verify_all() -> list[float]:
        async def one(row: dict) -> float:
            identity = row["reward_model"]["ground_truth"]
            code = FAMILIES[identity["family"]].source(identity["params"])
            return await asyncio.to_thread(CodeFunctionRewardCalculator.verify_score,
                                           f"```python\n{code}```", identity)

        return await asyncio.gather(*(one(r) for r in tasks))

    started = time.perf_counter()
    scores = asyncio.run(verify_all())
    verified = time.perf_counter() - started
    print(f"code_function: {args.tasks} tasks generated in {generated:.1f} s ({args.tasks / generated:.0f} rows/s), "
          f"reference-verified in {verified:.1f} s ({args.tasks / verified:.1f} rows/s), "
          f"{sum(s == 1.0 for s in scores)} scored 1.0")
    for row, score in zip(tasks, scores, strict=True):
        if score != 1.0:  # name them: a timeout of a loaded machine, or a defect to look at
            identity = row["reward_model"]["ground_truth"]
            print(f"  below 1.0: {row['id']} {identity['family']} ({identity['size']}): {score}")


if __name__ == "__main__":
    main()
