"""Benchmark the robot_arm bootcamp (needs the `robotics` extra) against baselines measured in the same run.

  per configuration: World.collides vs a bare loop of mj_kinematics + mj_collision on the same scene
  per tool call:     forward_kinematics, check_collision, simulate_path (on the reference's paths) through
                     Tool.execute; simulate_path per dense sample as a ratio to the bare loop
  per verification:  verify_score of the reference's answer
  generation:        `bc-gen robot_arm -n N -j 1` (one core): CPU seconds of the process, and the ratio to the
                     5-minute goal for 1,000 tasks
Times are CPU times (time.process_time, getrusage of the child), so a busy machine does not inflate them.

    python bench/robot_arm.py            # N = 1000
    python bench/robot_arm.py 200        # a quicker generation figure
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

if importlib.util.find_spec("mujoco") is None:
    print("bench/robot_arm.py skipped: needs pip install 'bootcamp-harness[robotics]'")
    sys.exit(0)

import mujoco  # noqa: E402
import numpy as np  # noqa: E402
import orjson  # noqa: E402

from bc_common.tasks import TaskSet  # noqa: E402
from bootcamps.robot_arm.discovery import solve  # noqa: E402
from bootcamps.robot_arm.policy import answer_text  # noqa: E402
from bootcamps.robot_arm.reward import RobotArmRewardCalculator  # noqa: E402
from bootcamps.robot_arm.tools import CheckCollisionTool, ForwardKinematicsTool, SimulatePathTool  # noqa: E402
from bootcamps.robot_arm.world import world_for  # noqa: E402

GOAL_S = 300.0  # 1,000 tasks on one core


def cpu_per_call(fn, repeat: int) -> float:
    started = time.process_time()
    for _ in range(repeat):
        fn()
    return (time.process_time() - started) / repeat


def bare_loop(model, data, qs) -> None:
    for q in qs:
        data.qpos[:] = q
        mujoco.mj_kinematics(model, data)
        mujoco.mj_collision(model, data)


async def tool_times(identities: list[dict], paths: list[list[list[float]]]) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {"forward_kinematics": [], "check_collision": [], "simulate_path": [],
                                   "simulate_path_per_sample": []}
    tools = {"forward_kinematics": ForwardKinematicsTool(), "check_collision": CheckCollisionTool(),
             "simulate_path": SimulatePathTool()}
    for identity, path in zip(identities, paths, strict=True):
        ids = {name: await tool.create(identity=identity) for name, tool in tools.items()}
        for name, args in (("forward_kinematics", {"q": path[-1]}), ("check_collision", {"q": path[0]}),
                           ("simulate_path", {"waypoints": path})):
            tool = tools[name]
            await tool.execute(ids[name], args)  # compile the scene outside the timing
            started = time.process_time()
            for _ in range(20):
                _text, _reward, metrics = await tool.execute(ids[name], args)
            took = (time.process_time() - started) / 20
            out[name].append(took)
            if name == "simulate_path":
                out["simulate_path_per_sample"].append(took / metrics["samples"])
        for name, tool in tools.items():
            await tool.release(ids[name])
    return out


def generation(n: int) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of `bc-gen robot_arm -n n -j 1`."""
    with tempfile.TemporaryFile() as sink:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        subprocess.run([os.path.join(os.path.dirname(sys.executable), "bc-gen"), "robot_arm", "-n", str(n),
                        "--seed", "1", "-j", "1"], stdout=sink, stderr=subprocess.DEVNULL, check=True)
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    tasks = TaskSet("robot_arm", seed=5)
    identities = [tasks.identity(i) for i in range(30)]
    paths = [solve(identity)[0] for identity in identities]

    world = world_for(identities[0])
    qs = np.random.default_rng(0).uniform(world.limits[:, 0], world.limits[:, 1], size=(5000, world.n))
    bare = cpu_per_call(lambda: bare_loop(world.model, world.data, qs), 5) / len(qs)
    ours = cpu_per_call(lambda: [world.collides(q) for q in qs], 5) / len(qs)
    print(f"per configuration: World.collides {ours * 1e6:.2f} us, bare MuJoCo loop {bare * 1e6:.2f} us "
          f"-> {bare / ours:.2f}x")

    times = asyncio.run(tool_times(identities, paths))
    for name in ("forward_kinematics", "check_collision", "simulate_path"):
        values = times[name]
        print(f"tool {name}: median {statistics.median(values) * 1e3:.3f} ms, max {max(values) * 1e3:.3f} ms")
    per_sample = statistics.median(times["simulate_path_per_sample"])
    samples = [times["simulate_path"][i] / times["simulate_path_per_sample"][i] for i in range(len(paths))]
    print(f"simulate_path: median {statistics.median(samples):.0f} samples per reference path, "
          f"{per_sample * 1e6:.2f} us per sample -> {bare / per_sample:.2f}x the bare loop")

    verify = [cpu_per_call(lambda i=i: RobotArmRewardCalculator.verify_score(answer_text(paths[i]), identities[i]),
                           10) for i in range(len(paths))]
    print(f"verification (reference answers): median {statistics.median(verify) * 1e3:.2f} ms, "
          f"max {max(verify) * 1e3:.2f} ms")

    cpu, wall = generation(n)
    scaled = cpu * 1000 / n
    print(f"generation: {n} tasks in {cpu:.1f} s CPU ({wall:.1f} s wall), {cpu / n * 1e3:.0f} ms per task; "
          f"1,000 tasks = {scaled:.0f} s -> {scaled / GOAL_S:.2f}x the 5-minute goal")
    print(orjson.dumps({"collides_us": ours * 1e6, "bare_us": bare * 1e6, "generation_s_per_1000": scaled}).decode())


if __name__ == "__main__":
    main()
