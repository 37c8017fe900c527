"""Motion planning over a World: damped-least-squares IK and RRT-Connect in joint space, then shortcuts.

Every edge is checked with the same dense sampling the verifier uses, and the final (rounded) path is
replayed with `World.check_path`, so a path returned here passes the verifier in the world it was planned in.
Randomness comes only from the `random.Random` passed in; iterations are bounded.
"""
from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterator

import numpy as np

from .world import MAX_WAYPOINTS, World

DECIMALS = 4  # waypoints are rounded like the identity, so the submitted path is the checked one


def random_config(world: World, rng: random.Random) -> np.ndarray:
    return np.array([rng.uniform(lo, hi) for lo, hi in world.limits])


def inverse_kinematics(world: World, rng: random.Random, *, seeds: list[np.ndarray] | None = None,
                       restarts: int = 12, iterations: int = 40) -> Iterator[np.ndarray]:
    """Collision-free configurations within limits whose end effector is within a quarter of the tolerance
    of the target, lazily: from `seeds` first, then from random restarts."""
    goal_tol = world.tolerance / 4
    lo, hi = world.limits[:, 0], world.limits[:, 1]
    damping = 1e-3 * np.eye(3)
    seeds = list(seeds or [])
    for attempt in range(len(seeds) + restarts):
        q = np.clip(seeds[attempt] if attempt < len(seeds) else random_config(world, rng), lo, hi)
        best = math.inf
        for _ in range(iterations):
            ee, jac = world.jacobian(q)
            err = world.target - ee
            size = float(np.linalg.norm(err))
            if size < goal_tol / 4 or size > 0.98 * best:  # converged, or stuck against a limit
                break
            best = size
            # damped least squares keeps steps bounded near singular poses
            step = jac.T @ np.linalg.solve(jac @ jac.T + damping, err)
            q = np.clip(q + np.clip(step, -0.5, 0.5), lo, hi)
        q = np.round(q, DECIMALS)
        if (np.linalg.norm(world.end_effector(q) - world.target) <= goal_tol and world.limit_violations(q) == []
                and not world.collides(q)):
            yield q


class _Tree:
    """Nodes in a preallocated array; a node whose parent is -1 is a root (the goal tree has several)."""

    def __init__(self, roots: list[np.ndarray], capacity: int):
        self.nodes = np.empty((capacity + len(roots), roots[0].size))
        self.nodes[: len(roots)] = roots
        self.parent = [-1] * len(roots)

    def __len__(self) -> int:
        return len(self.parent)

    def nearest(self, q: np.ndarray, weights: np.ndarray) -> int:
        return int(np.argmin(np.abs(self.nodes[: len(self)] - q) @ weights))

    def add(self, q: np.ndarray, parent: int) -> int:
        self.nodes[len(self)] = q
        self.parent.append(parent)
        return len(self) - 1

    def branch(self, index: int) -> list[np.ndarray]:
        """The nodes from `index` back to its root."""
        out = []
        while index >= 0:
            out.append(self.nodes[index].copy())
            index = self.parent[index]
        return out


def _toward(world: World, qa: np.ndarray, qb: np.ndarray, step: float) -> np.ndarray:
    sweep = float(np.abs(qb - qa) @ world.reach)
    return qb if sweep <= step else qa + (qb - qa) * (step / sweep)


def rrt_connect(world: World, start: np.ndarray, goals: list[np.ndarray], rng: random.Random, *,
                max_nodes: int = 800, step: float = 0.35) -> list[np.ndarray] | None:
    """A collision-free joint-space path from `start` to any of `goals`, or None within `max_nodes` tree nodes
    and as many extension attempts. `step` bounds the Cartesian sweep of one tree edge (metres: the sum of
    reach radius x joint change)."""
    for goal in goals:
        if world.segment_free(start, goal):
            return [start, goal]
    trees = (_Tree([start], max_nodes), _Tree(goals, max_nodes))
    grow, other = 0, 1
    for _ in range(max_nodes):
        if len(trees[0]) + len(trees[1]) >= max_nodes:
            break
        a, b = trees[grow], trees[other]
        sample = random_config(world, rng)
        near = a.nearest(sample, world.reach)
        new = _toward(world, a.nodes[near], sample, step)
        if world.segment_free(a.nodes[near], new):
            added = a.add(new, near)
            # connect: b grows greedily toward the new node until it reaches it or is blocked
            j = b.nearest(new, world.reach)
            while len(trees[0]) + len(trees[1]) < max_nodes:
                nxt = _toward(world, b.nodes[j], new, step)
                if not world.segment_free(b.nodes[j], nxt):
                    break
                j = b.add(nxt, j)
                if np.array_equal(nxt, new):  # the trees meet: start -> new -> a goal
                    if grow == 0:
                        return a.branch(added)[::-1] + b.branch(j)[1:]
                    return b.branch(j)[::-1] + a.branch(added)[1:]
        grow, other = other, grow
    return None


def shortcut(world: World, path: list[np.ndarray], rng: random.Random, tries: int = 40) -> list[np.ndarray]:
    """Drop the waypoints between random pairs that see each other directly (`tries` pairs, seeded)."""
    path = list(path)
    for _ in range(tries):
        if len(path) <= 2:
            break
        i = rng.randrange(len(path) - 2)
        j = rng.randrange(i + 2, len(path))
        if world.segment_free(path[i], path[j]):
            path = path[: i + 1] + path[j:]
    return path


def plan(world: World, start: np.ndarray, rng: random.Random, *, goals: int = 4,
         max_nodes: int = 800) -> list[np.ndarray] | None:
    """A rounded, verified path from `start` onto the target (start included), or None."""
    targets = list(itertools.islice(inverse_kinematics(world, rng, seeds=[start]), goals))
    if not targets:
        return None
    path = rrt_connect(world, start, targets, rng, max_nodes=max_nodes)
    if path is None:
        return None
    path = [np.round(q, DECIMALS) for q in shortcut(world, path, rng)]
    path[0] = start
    if len(path) - 1 <= MAX_WAYPOINTS and world.check_path(path, all_contacts=False).valid:
        return path
    return None
