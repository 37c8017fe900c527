"""The reference procedure: plan around the obstacles known so far, replay the path on the true scene (the
`simulate_path` tool), learn every obstacle it touched, and plan again.

The generator runs it against the true scene and keeps only tasks it solves within `MAX_ROUNDS` replays; the
reference policy runs the same steps through the tool, so it meets the same plans, the same reports and the
same end. Each plan's random stream is keyed by what it depends on (the public task and the obstacles known).
"""
from __future__ import annotations

import functools
import hashlib
import random
from typing import Any

import numpy as np
import orjson

from .planner import plan
from .world import PathReport, World, world_for

MAX_ROUNDS = 3  # simulate_path calls; with the answer that is 4 assistant turns (bc-eval allows 5)
PROBE_BUDGET = MAX_ROUNDS  # calls each of `simulate_path` and `check_collision` answer per task
MOTION_SLACK = 1.5  # the task's replay budget: this many times the joint motion the reference procedure replays


def visible_obstacles(identity: dict[str, Any]) -> list[dict[str, Any]]:
    """The obstacles the prompt shows: all of them, or none when they are hidden."""
    return [] if identity["hidden"] else list(identity["obstacles"])


def touched_obstacles(identity: dict[str, Any], report: PathReport) -> list[dict[str, Any]]:
    """The obstacles (full descriptions) of every pair a replay touched, by name."""
    names = {name for pair in report.touched for name in pair}
    return [o for o in identity["obstacles"] if o["name"] in names]


def merge(known: list[dict[str, Any]], more: list[dict[str, Any]]) -> list[dict[str, Any]]:
    by_name = {o["name"]: o for o in known}
    by_name.update({o["name"]: o for o in more})
    return [by_name[name] for name in sorted(by_name)]


def plan_known(identity: dict[str, Any], known: list[dict[str, Any]]) -> list[list[float]] | None:
    """Waypoints (the start excluded) from the start onto the target around the `known` obstacles, or None.

    Uses only what the prompt states plus `known`: the identity's own obstacle list is replaced."""
    public = {k: identity[k] for k in ("arm", "links", "limits", "margin", "target", "tolerance", "start")}
    key = orjson.dumps({"task": public, "known": merge([], known)}, option=orjson.OPT_SORT_KEYS).decode()
    return _plan(key)


@functools.lru_cache(maxsize=1024)  # the generator and then the policy plan the same (task, knowledge)
def _plan(key: str) -> list[list[float]] | None:
    spec = orjson.loads(key)
    world = world_for({**spec["task"], "obstacles": spec["known"]})
    rng = random.Random(int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big"))
    path = plan(world, np.array(spec["task"]["start"], dtype=float), rng)
    return None if path is None else [[float(v) for v in q] for q in path[1:]]


def replay(identity: dict[str, Any], waypoints: list[list[float]], world: World | None = None, *,
           first_only: bool = False) -> PathReport:
    """The true scene's dense replay of start + waypoints: every pair touched (the tool's view), or up to the
    first collision only (the verifier's)."""
    world = world or world_for(identity)
    path = [np.array(identity["start"], dtype=float)] + [np.array(q, dtype=float) for q in waypoints]
    return world.check_path(path, all_contacts=not first_only)


def motion(start: list[float], waypoints: list[list[float]]) -> float:
    """The joint motion of a path (radians, summed over joints and segments): what a replay costs."""
    path = [np.array(start, dtype=float)] + [np.array(q, dtype=float) for q in waypoints]
    return float(sum(np.abs(b - a).sum() for a, b in zip(path[:-1], path[1:], strict=True)))


def solve(identity: dict[str, Any], rounds: int = MAX_ROUNDS) -> tuple[list[list[float]], int, float] | None:
    """(waypoints, replays used, joint motion replayed) when the reference procedure solves the task within
    `rounds` replays."""
    known = merge([], visible_obstacles(identity))
    spent = 0.0
    for used in range(1, rounds + 1):
        waypoints = plan_known(identity, known)
        if waypoints is None:
            return None
        report = replay(identity, waypoints, first_only=True)
        spent += motion(identity["start"], waypoints)
        if report.valid:
            return waypoints, used, spent
        learned = merge(known, touched_obstacles(identity, report))
        if learned == known:  # nothing new to learn: the next plan would be the same
            return None
        known = learned
    return None
