"""Seeded reaching tasks: an arm, obstacles, a start configuration and a target point, solvable by construction.

A draw is kept only when the start and a drawn goal configuration are collision-free, the straight joint-space
line between them is blocked (the task needs planning), and the reference procedure (RRT-Connect over MuJoCo
collision checks, learning hidden obstacles from replays) reaches the target; otherwise it is redrawn.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from bc_common.bootcamp import InstructionGenerator

from .discovery import MOTION_SLACK, PROBE_BUDGET, solve
from .prompt import render_prompt
from .scene import PLANAR, SPATIAL
from .world import World

DECIMALS = 4  # joint angles and points in the identity (same seed => same bytes)
SIZE_DECIMALS = 3  # lengths, radii and obstacle dimensions
MAX_OBSTACLES = 16


@dataclass
class RobotArmConfig:
    arm: str = PLANAR  # "planar" (links in the plane z = 0) or "spatial" (6 joints)
    links: int = 3  # planar arms only
    min_obstacles: int = 2
    max_obstacles: int = 3
    hidden: bool = False  # obstacles absent from the prompt: found only through the tools
    tolerance: float = 0.02  # metres between the end effector and the target
    margin: float = 0.02  # metres of clearance every link must keep
    require_detour: bool = True  # the straight line to the drawn goal collides and the reference path bends
    probe_budget: int = PROBE_BUDGET  # calls each of check_collision and simulate_path answer per task
    # replays the discovery procedure (plan around the obstacles known, replay, learn what the replay touched) must
    # need: with 3, a plan around what one replay revealed still collides. Hidden obstacles: the reference's own
    # procedure; visible ones: the same procedure run as if they were hidden (fixing only the collision in the
    # way, then the next, is not enough), while the reference plans around every listed obstacle
    min_rounds: int = 1
    hug: int = 0  # obstacles added close beside the goal posture's links: the arm must arrive in that shape
    overhead: bool = False  # spatial arms: the first obstacle hangs over the column ("point up, turn" is blocked)
    max_draws: int = 400

    def validate(self) -> None:
        if self.arm not in (PLANAR, SPATIAL):
            raise ValueError(f"arm must be {PLANAR!r} or {SPATIAL!r}")
        if not 2 <= self.links <= 6:
            raise ValueError("links must be in 2..6")
        if not 0 <= self.min_obstacles <= self.max_obstacles <= MAX_OBSTACLES:
            raise ValueError(f"need 0 <= min_obstacles <= max_obstacles <= {MAX_OBSTACLES}")
        if not 0.005 <= self.tolerance <= 0.2:
            raise ValueError("tolerance must be in [0.005, 0.2] metres")
        if not 0.005 <= self.margin <= 0.1:
            raise ValueError("margin must be in [0.005, 0.1] metres")
        if not 1 <= self.probe_budget <= 20:
            raise ValueError("probe_budget must be in 1..20")
        if not 0 <= self.hug <= MAX_OBSTACLES - self.max_obstacles:
            raise ValueError(f"hug must be in 0..{MAX_OBSTACLES} - max_obstacles")
        if not 1 <= self.min_rounds <= (self.probe_budget if self.hidden else MAX_OBSTACLES):
            raise ValueError("min_rounds must be in 1..probe_budget (hidden obstacles) or 1..16 (visible)")
        if not 1 <= self.max_draws <= 10_000:
            raise ValueError("max_draws must be in 1..10000")


class RobotArmInstructionGenerator(InstructionGenerator):
    """Draws scenes from `self.rng` until one passes the solvability check (bounded by `max_draws`)."""

    Config = RobotArmConfig
    name = "robot_arm"

    def case_generator(self) -> dict[str, Any]:
        for _ in range(self.max_draws):
            identity = self._draw()
            if identity is None:
                continue
            solved = solve(identity, rounds=identity["probe_budget"])
            # a one-segment answer would need no planning: keep tasks whose reference path bends
            if solved is not None and (len(solved[0]) >= 2 or not self.require_detour) \
                    and self._needs_rounds(identity, solved):
                # replays cost joint motion: room for the reference's own probes and a half again, not for sweeps
                identity["motion_budget"] = math.ceil(MOTION_SLACK * solved[2] * 10) / 10
                return identity
        raise RuntimeError(f"no solvable robot_arm task in {self.max_draws} draws; loosen the config "
                           "(fewer or smaller obstacles, a larger tolerance)")

    def _needs_rounds(self, identity: dict[str, Any], solved: tuple[Any, ...]) -> bool:
        """The discovery procedure needs at least `min_rounds` replays: on hidden obstacles the reference's own
        count; on visible ones, the procedure run as if they were hidden solves nothing in fewer."""
        if self.hidden:
            return solved[1] >= self.min_rounds
        return self.min_rounds <= 1 or solve({**identity, "hidden": True}, rounds=self.min_rounds - 1) is None

    def prompt_func(self, identity: dict[str, Any]) -> str:
        return render_prompt(identity)

    # -- drawing ----------------------------------------------------------------------------------------
    def _u(self, lo: float, hi: float, decimals: int = SIZE_DECIMALS) -> float:
        return round(self.rng.uniform(lo, hi), decimals)

    def _arm(self) -> tuple[list[dict[str, float]], list[list[float]]]:
        if self.arm == PLANAR:
            links = [{"length": self._u(0.2, 0.4), "radius": self._u(0.02, 0.035)} for _ in range(self.links)]
            limits = [[-self._u(2.6, 3.1), self._u(2.6, 3.1)]]
            limits += [[-self._u(1.9, 2.6), self._u(1.9, 2.6)] for _ in range(self.links - 1)]
            return links, limits
        spans = ((0.25, 0.35, 0.05), (0.3, 0.42, 0.04), (0.25, 0.38, 0.035), (0.08, 0.12, 0.03), (0.05, 0.09, 0.02))
        links = [{"length": self._u(lo, hi), "radius": self._u(r - 0.005, r + 0.005)} for lo, hi, r in spans]
        limits = [[-self._u(2.6, 3.1), self._u(2.6, 3.1)],  # base yaw
                  [-self._u(1.7, 2.1), self._u(0.3, 0.7)],  # shoulder: negative lifts the arm
                  [-self._u(2.0, 2.5), self._u(2.0, 2.5)],  # elbow
                  [-self._u(2.6, 3.1), self._u(2.6, 3.1)],  # wrist roll
                  [-self._u(1.6, 2.0), self._u(1.6, 2.0)],  # wrist pitch
                  [-3.1416, 3.1416]]  # tool roll
        return links, limits

    def _obstacle(self, index: int, links: list[dict[str, float]]) -> dict[str, Any]:
        shape = "sphere" if self.rng.random() < 0.5 else "box"
        phi = self.rng.uniform(-math.pi, math.pi)
        if self.arm == PLANAR:
            size = ([self._u(0.04, 0.1)] if shape == "sphere"
                    else [self._u(0.02, 0.08), self._u(0.02, 0.08), 0.1])
            # beyond the first link's sweep: an obstacle there would split joint_1's range for good
            reach = sum(link["length"] for link in links)
            low = links[0]["length"] + links[0]["radius"] + math.hypot(size[0], size[-1] if len(size) < 3
                                                                        else size[1]) + self.margin
            rho, z = self.rng.uniform(min(low, 0.8 * reach), 0.9 * reach), 0.0
        elif self.overhead and index == 0:
            # a plate over the column, below the height of the arm pointing straight up
            column, upper = links[0]["length"], links[1]["length"]
            shape, size = "box", [self._u(0.08, 0.14), self._u(0.08, 0.14), self._u(0.02, 0.04)]
            rho, z = self.rng.uniform(0.0, 0.1), self.rng.uniform(column + 0.5 * upper, column + upper)
        else:
            reach = sum(link["length"] for link in links[1:])
            low = links[0]["radius"] + 0.15  # clear of the column
            rho = self.rng.uniform(low, 0.9 * reach)
            if shape == "sphere":
                size = [self._u(0.05, 0.12)]
                z = self.rng.uniform(0.1, links[0]["length"] + 0.6 * reach)
            else:
                size = [self._u(0.03, 0.1), self._u(0.03, 0.1), self._u(0.05, 0.3)]
                z = size[2] if self.rng.random() < 0.5 else self.rng.uniform(0.1, links[0]["length"] + 0.5 * reach)
        obstacle: dict[str, Any] = {"name": f"obstacle_{index + 1}", "shape": shape,
                                    "pos": [round(rho * math.cos(phi), SIZE_DECIMALS),
                                            round(rho * math.sin(phi), SIZE_DECIMALS), round(z, SIZE_DECIMALS)],
                                    "size": size}
        if shape == "box":
            obstacle["yaw"] = self._u(-math.pi, math.pi)
        return obstacle

    def _config(self, limits: list[list[float]]) -> list[float]:
        return [round(self.rng.uniform(lo, hi), DECIMALS) + 0.0 for lo, hi in limits]

    def _draw(self) -> dict[str, Any] | None:
        """One candidate task, or None when its start, goal or straight line fails the checks."""
        links, limits = self._arm()
        count = self.rng.randint(self.min_obstacles, self.max_obstacles)
        identity: dict[str, Any] = {
            "arm": self.arm, "links": links, "limits": limits,
            "obstacles": [self._obstacle(i, links) for i in range(count)],
            "start": self._config(limits), "target": [0.0, 0.0, 0.0],
            "tolerance": self.tolerance, "margin": self.margin, "hidden": self.hidden,
            "probe_budget": self.probe_budget,
        }
        world = World(identity)  # not cached: most draws are used once
        start = np.array(identity["start"])
        if world.collides(start):
            return None
        reach = float(world.reach[0])
        for _ in range(20):
            goal = np.array(self._config(limits))
            if world.collides(goal):
                continue
            target = world.end_effector(goal)
            if np.linalg.norm(target - world.end_effector(start)) < max(0.3 * reach, 3 * self.tolerance):
                continue
            if self.require_detour and world.segment_free(start, goal):
                continue
            identity["target"] = [round(float(v), DECIMALS) + 0.0 for v in target]  # no -0.0
            if self.hug:
                return self._hugged(identity, world, start, goal)
            return identity
        return None

    def _hugged(self, identity: dict[str, Any], world: World, start: np.ndarray,
                goal: np.ndarray) -> dict[str, Any] | None:
        """`identity` with `hug` spheres added beside the goal posture's links, a few centimetres clear of them
        (so only postures near the drawn one reach the target), or None when they touch the start or the goal."""
        points = [np.array(p) for p in world.joint_positions(goal)] + [world.end_effector(goal)]
        links = identity["links"]
        extra = []
        for k in range(self.hug):
            i = self.rng.randrange(len(points) - 1)
            a, b = points[i], points[i + 1]
            axis = (b - a) / max(float(np.linalg.norm(b - a)), 1e-9)
            if self.arm == PLANAR:
                side = np.array([-axis[1], axis[0], 0.0]) * self.rng.choice((-1.0, 1.0))
            else:  # a random direction square to the link
                side = np.cross(axis, [self.rng.gauss(0, 1) for _ in range(3)])
                side /= max(float(np.linalg.norm(side)), 1e-9)
            radius = self._u(0.03, 0.07)
            link_radius = links[min(i, len(links) - 1)]["radius"]
            gap = link_radius + self.margin + radius + self.rng.uniform(0.005, 0.04)
            centre = a + (b - a) * self.rng.uniform(0.2, 1.0) + side * gap
            extra.append({"name": f"obstacle_{len(identity['obstacles']) + k + 1}", "shape": "sphere",
                          "pos": [round(float(v), SIZE_DECIMALS) + 0.0 for v in centre], "size": [radius]})
        identity["obstacles"] = identity["obstacles"] + extra
        hugged = World(identity)
        if hugged.collides(start) or hugged.collides(goal):
            return None
        return identity
