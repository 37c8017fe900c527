"""Benchmark the battery_design bootcamp (needs the `battery` extra) against baselines measured in the same run.

  per simulation:   the `simulate` tool on a built model vs a bare PyBaMM `Simulation.solve` of the same inputs
  per new geometry: build + first solve (a thickness or radius not seen before in this process)
  per estimate:     the closed-form estimate of one design
  per verification: verify_score of the reference's answer (geometry already built, and on a fresh process cache)
  generation:       `bc-gen battery_design -n N -j 1` (one core): CPU seconds of the process and the ratio to the
                    5-minute goal for 1,000 tasks
Times are CPU times (time.process_time, getrusage of the child), so a busy machine does not inflate them.

    python bench/battery_design.py         # N = 1000
    python bench/battery_design.py 200     # a quicker generation figure (build costs weigh more)
    python bench/battery_design.py 0       # the per-call figures only
"""
from __future__ import annotations

import asyncio
import importlib.util
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

if importlib.util.find_spec("pybamm") is None:
    print("bench/battery_design.py skipped: needs pip install 'bootcamp-harness[battery]'")
    sys.exit(0)

import pybamm  # noqa: E402

from bc_common.tasks import TaskSet  # noqa: E402
from bootcamps.battery_design import cell  # noqa: E402
from bootcamps.battery_design.cell import Conditions, Design, built, positive_active_fraction  # noqa: E402
from bootcamps.battery_design.estimate import estimate  # noqa: E402
from bootcamps.battery_design.generator import reference_solve  # noqa: E402
from bootcamps.battery_design.policy import answer_text  # noqa: E402
from bootcamps.battery_design.reward import BatteryDesignRewardCalculator  # noqa: E402
from bootcamps.battery_design.tools import SimulateTool  # noqa: E402

GOAL_S = 300.0  # 1,000 tasks on one core
pybamm.set_logging_level("ERROR")


def cpu_per_call(fn, repeat: int) -> float:
    started = time.process_time()
    for _ in range(repeat):
        fn()
    return (time.process_time() - started) / repeat


def main(n: int) -> None:
    design, conditions = Design(80, 0.35, 100, 5, "passive"), Conditions(2.0, 25.0, 10.0)
    sim = built(design.geometry)
    current = 2.0 * cell.nominal_capacity_ah(design)
    inputs = {"Positive electrode porosity": 0.35,
              "Positive electrode active material volume fraction": positive_active_fraction(0.35, 5),
              "Total heat transfer coefficient [W.m-2.K-1]": 10.0, "Ambient temperature [K]": 298.15,
              "Initial temperature [K]": 298.15, "Current function [A]": current}
    bare = cpu_per_call(lambda: sim.solve([0.0, 2250.0], inputs=inputs), 30)

    identity = TaskSet("battery_design", seed=1)[0]["reward_model"]["ground_truth"]
    identity = {**identity, "budget": 10_000, "capacity_window_ah": [0.1, 10.0]}
    tool = SimulateTool()
    instance = asyncio.run(tool.create(identity=identity))
    args = {"design": {k: design.as_dict()[k] for k in identity["free"]}}
    if "cooling" not in identity["free"]:
        identity["fixed"] = {**identity["fixed"], "cooling": "passive"}
    per_sim = cpu_per_call(lambda: asyncio.run(tool.execute(instance, args)), 30)
    print(f"simulate on a built model: {per_sim * 1000:.1f} ms CPU; bare PyBaMM solve {bare * 1000:.1f} ms; "
          f"ratio {per_sim / bare:.2f}x (goal <= 100 ms)")

    geometries = [(t, 100, 5) for t in range(101, 111)]
    started = time.process_time()
    for g in geometries:
        cell.simulate(Design(g[0], 0.35, 100, 5, "passive"), conditions)
    per_geometry = (time.process_time() - started) / len(geometries)
    print(f"new geometry (build + first solve): {per_geometry:.2f} s CPU; {per_geometry / bare:.0f}x a solve on a "
          "built model (goal <= 2 s)")
    per_estimate = cpu_per_call(lambda: estimate(design, conditions), 2000)
    print(f"estimate: {per_estimate * 1e6:.0f} µs CPU; {bare / per_estimate:.0f}x cheaper than a solve")

    rows = TaskSet("battery_design", seed=2)
    answers = []
    for i in range(12):
        truth = rows[i]["reward_model"]["ground_truth"]
        found, _ = reference_solve(truth)
        answers.append((answer_text(found), truth))
    warm = statistics.mean(cpu_per_call(lambda a=a, t=t: BatteryDesignRewardCalculator.verify_score(a, t), 3)
                           for a, t in answers)
    cell._local.sims = None  # a fresh process cache: every verification builds its geometry
    started = time.process_time()
    for a, t in answers:
        BatteryDesignRewardCalculator.verify_score(a, t)
    cold = (time.process_time() - started) / len(answers)
    print(f"verification: {warm * 1000:.1f} ms CPU on a built geometry ({warm / bare:.2f}x a bare solve), "
          f"{cold:.2f} s on a fresh cache")
    if n == 0:
        return

    with tempfile.TemporaryDirectory() as tmp:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        wall = time.perf_counter()
        subprocess.run([os.path.join(os.path.dirname(sys.executable), "bc-gen"), "battery_design", "-n", str(n),
                        "--seed", "11", "-j", "1", "-o", os.path.join(tmp, "tasks.jsonl")], check=True,
                       stderr=subprocess.DEVNULL)
        wall = time.perf_counter() - wall
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    per_1000 = cpu * 1000 / n
    print(f"generation: {n} tasks in {cpu:.0f} s CPU ({wall:.0f} s wall), {per_1000:.0f} s per 1,000; "
          f"{per_1000 / GOAL_S:.2f}x the 5-minute goal")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
