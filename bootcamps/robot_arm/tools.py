"""The arm's tools over the true scene: forward kinematics, a collision check, and the graded path replay.

Each returns a JSON object as text. Hidden obstacles stay in the tool state (the identity); a report names
and describes only the obstacles the arm touches. The two tools that can reveal hidden obstacles
(`check_collision`, `simulate_path`) answer at most the task's `probe_budget` calls each, and path replays spend
the task's `motion_budget` (radians of joint motion, summed over joints and segments): room for replaying one's
own plans, not for sweeping the workspace. Step reward is always 0: calling a tool earns nothing.
"""
from __future__ import annotations

import math
from typing import Any, ClassVar

import numpy as np
import orjson

from bc_common.bootcamp import Tool
from bc_common.errors import ToolError

from .discovery import PROBE_BUDGET, motion, replay, touched_obstacles
from .scene import joint_count
from .world import MAX_WAYPOINTS, Contact, World, world_for

_ANGLES = {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 6,
           "description": "Joint angles in radians, one per joint, in the task's joint order."}


def _r(value: float) -> float:
    return round(float(value), 4) + 0.0


def _vec(values: Any) -> list[float]:
    return [_r(v) for v in values]


class ArmTool(Tool):
    """Shared state and argument checks: the task's identity, resolved to a compiled world per call."""

    tool_schema: ClassVar[dict[str, Any]] = {}
    budgeted: ClassVar[bool] = False  # a probe that can reveal hidden obstacles: limited per task

    def setup_state(self, identity: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return {"identity": identity, "calls": 0, "motion": 0.0}

    def _world(self, instance_id: str) -> tuple[dict[str, Any], World]:
        state = self.state(instance_id)
        identity = state["identity"]
        if not identity or "links" not in identity:
            raise ToolError("no_task", "this tool instance was created without a robot_arm task")
        budget = int(identity.get("probe_budget", PROBE_BUDGET))
        if self.budgeted and state["calls"] >= budget:
            raise ToolError("budget_exhausted", f"{self.name} answers {budget} calls per task and they are used "
                                                "up; nothing was checked")
        state["calls"] += 1
        return identity, world_for(identity)

    def _left(self, instance_id: str) -> int:
        state = self.state(instance_id)
        return int(state["identity"].get("probe_budget", PROBE_BUDGET)) - state["calls"]

    @staticmethod
    def _angles(value: Any, n: int, where: str) -> np.ndarray:
        if not isinstance(value, list) or len(value) != n:
            got = len(value) if isinstance(value, list) else type(value).__name__
            raise ToolError("invalid_arguments", f"{where} must be a list of {n} joint angles (got {got})")
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in value):
            raise ToolError("invalid_arguments", f"{where} must hold finite numbers (radians)")
        return np.array(value, dtype=float)

    @staticmethod
    def _text(payload: dict[str, Any]) -> str:
        return orjson.dumps(payload).decode()


def _obstacles_in(identity: dict[str, Any], contacts: list[Contact]) -> list[dict[str, Any]]:
    names = {name for c in contacts for name in c.pair}
    return [o for o in identity["obstacles"] if o["name"] in names]


class ForwardKinematicsTool(ArmTool):
    """End-effector and joint positions for one configuration (MuJoCo's kinematics)."""

    tool_schema: ClassVar[dict[str, Any]] = {"type": "function", "function": {
        "name": "forward_kinematics",
        "description": "Positions (metres) of the end effector and of every joint for joint angles q, the "
                       "end effector's distance to the target, and any joint-limit violations.",
        "parameters": {"type": "object", "properties": {"q": _ANGLES}, "required": ["q"],
                       "additionalProperties": False}}}

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[str, float, dict]:
        identity, world = self._world(instance_id)
        q = self._angles(parameters.get("q"), joint_count(identity), "q")
        joints = world.joint_positions(q)
        end = world.end_effector(q)
        distance = float(np.linalg.norm(end - world.target))
        payload = {"end_effector": _vec(end), "distance_to_target": _r(distance),
                   "on_target": distance <= world.tolerance,
                   "joint_positions": {name: _vec(p) for name, p in zip(world.joint_names, joints, strict=True)},
                   "limit_violations": world.limit_violations(q)}
        return self._text(payload), 0.0, {}


class CheckCollisionTool(ArmTool):
    """Which pairs collide (closer than the margin) at one configuration, or none."""

    budgeted: ClassVar[bool] = True

    tool_schema: ClassVar[dict[str, Any]] = {"type": "function", "function": {
        "name": "check_collision",
        "description": "Whether joint angles q collide: every pair closer than the margin (link-obstacle, "
                       "link-floor, link-link) with its surface distance and contact point, and the shape, "
                       "position and size of every obstacle touched. Answers a limited number of calls per task "
                       "(the prompt states how many).",
        "parameters": {"type": "object", "properties": {"q": _ANGLES}, "required": ["q"],
                       "additionalProperties": False}}}

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[str, float, dict]:
        identity, world = self._world(instance_id)
        q = self._angles(parameters.get("q"), joint_count(identity), "q")
        contacts = world.contacts(q)
        payload = {"collision": bool(contacts), "contacts": [c.as_dict() for c in contacts],
                   "obstacles": _obstacles_in(identity, contacts), "limit_violations": world.limit_violations(q),
                   "calls_left": self._left(instance_id)}
        return self._text(payload), 0.0, {}


def _waypoint(index: int) -> str:
    return "start" if index == 0 else f"waypoint {index - 1}"


class SimulatePathTool(ArmTool):
    """The path replayed exactly as the verifier replays it, up to the first contact (what it met there)."""

    budgeted: ClassVar[bool] = True

    tool_schema: ClassVar[dict[str, Any]] = {"type": "function", "function": {
        "name": "simulate_path",
        "description": "Replay a motion from the start configuration through the waypoints (straight lines in "
                       "joint space, checked densely) as the answer is graded, stopping at the first contact as a "
                       "real arm would: that collision with the obstacles in it, joint-limit violations, and the final "
                       "end effector's distance to the target. `valid` is true when the path would score 1. "
                       "Limited per task in calls and in total joint motion replayed (the prompt states both).",
        "parameters": {"type": "object", "properties": {"waypoints": {
            "type": "array", "items": _ANGLES, "minItems": 1, "maxItems": MAX_WAYPOINTS,
            "description": "Joint configurations after the start, in order (waypoint 0 first)."}},
            "required": ["waypoints"], "additionalProperties": False}}}

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[str, float, dict]:
        identity, world = self._world(instance_id)
        waypoints = parameters.get("waypoints")
        if not isinstance(waypoints, list) or not 1 <= len(waypoints) <= MAX_WAYPOINTS:
            raise ToolError("invalid_arguments", f"waypoints must be a list of 1 to {MAX_WAYPOINTS} configurations")
        n = joint_count(identity)
        path = [self._angles(q, n, f"waypoints[{i}]").tolist() for i, q in enumerate(waypoints)]
        state = self.state(instance_id)
        cost, allowed = motion(identity["start"], path), identity.get("motion_budget")
        if allowed is not None and state["motion"] + cost > allowed + 1e-9:
            state["calls"] -= 1  # nothing was replayed: the call is not spent
            raise ToolError("budget_exhausted", f"this path moves the joints {cost:.2f} rad in all; "
                                                f"{allowed - state['motion']:.2f} rad of the {allowed:g} rad replay "
                                                "budget are left; nothing was replayed")
        state["motion"] += cost
        report = replay(identity, path, world, first_only=True)
        for v in report.limit_violations:  # the report counts the start as entry 0
            v["waypoint"] = _waypoint(v["waypoint"])
        first = None
        if report.first is not None:
            seg = report.first["segment"]
            first = {"from": _waypoint(seg), "to": _waypoint(seg + 1), **report.first}
            del first["segment"]
        payload = {
            "valid": report.valid, "samples": report.samples, "first_collision": first,
            "touched": [{"between": list(pair), "first_on_way_to": _waypoint(seg + 1)}
                        for pair, seg in sorted(report.touched.items())],
            "obstacles": touched_obstacles(identity, report), "calls_left": self._left(instance_id),
            "limit_violations": report.limit_violations,
            "end_effector": _vec(report.end_effector), "distance_to_target": _r(report.distance_to_target),
            "on_target": report.on_target,
        }
        if allowed is not None:
            payload["motion_left"] = round(allowed - state["motion"], 4) + 0.0
        if report.limit_violations:
            payload["note"] = "collisions were not checked: bring every waypoint within the joint ranges first"
        return self._text(payload), 0.0, {"samples": report.samples}
