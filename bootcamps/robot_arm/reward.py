"""Grades the final assistant text: the last ```json {"waypoints": ...}``` block, replayed densely in MuJoCo.

1.0 iff every waypoint is within the joint limits, the whole motion from the start through the waypoints is
collision-free (checked at samples no more than margin/2 of arm motion apart), and the final end effector is
within the tolerance of the target; 0.0 otherwise.
"""
from __future__ import annotations

import math
from typing import Any, ClassVar

import numpy as np
import orjson

from bc_common.answer_blocks import fenced_blocks
from bc_common.bootcamp import RewardCalculator

from .discovery import replay
from .scene import joint_count
from .world import MAX_WAYPOINTS, world_for

MAX_BLOCK_CHARS = 20_000  # 32 waypoints x 6 angles fit in a few kB; longer blocks are not answers

_NUMBER = {"type": "number"}
_POINT = {"type": "array", "items": _NUMBER, "minItems": 3, "maxItems": 3}
_OBSTACLE = {
    "type": "object",
    "required": ["name", "shape", "pos", "size"],
    "properties": {
        "name": {"type": "string", "pattern": "^obstacle_[0-9]+$"},
        "shape": {"enum": ["sphere", "box"]},
        "pos": _POINT,
        "size": {"type": "array", "items": {"type": "number", "exclusiveMinimum": 0}, "minItems": 1, "maxItems": 3},
        "yaw": _NUMBER,
    },
    "additionalProperties": False,
}


def parse_waypoints(block: str) -> list[list[float]] | None:
    """The waypoint list of one answer block, or None when it is not a list of lists of finite numbers."""
    try:
        data = orjson.loads(block)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(data, dict):
        return None
    waypoints = data.get("waypoints")
    if not isinstance(waypoints, list) or not 1 <= len(waypoints) <= MAX_WAYPOINTS:
        return None
    out = []
    for q in waypoints:
        if not isinstance(q, list) or not 1 <= len(q) <= 6:
            return None
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in q):
            return None
        out.append([float(v) for v in q])
    return out


class RobotArmRewardCalculator(RewardCalculator):
    """1.0 for a collision-free, within-limits path that ends on target; 0.0 otherwise."""

    identity_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "required": ["arm", "links", "limits", "obstacles", "start", "target", "tolerance", "margin", "hidden"],
        "properties": {
            "arm": {"enum": ["planar", "spatial"]},
            "links": {"type": "array", "minItems": 2, "maxItems": 6, "items": {
                "type": "object", "required": ["length", "radius"], "additionalProperties": False,
                "properties": {"length": {"type": "number", "exclusiveMinimum": 0},
                               "radius": {"type": "number", "exclusiveMinimum": 0}}}},
            "limits": {"type": "array", "minItems": 2, "maxItems": 6,
                       "items": {"type": "array", "items": _NUMBER, "minItems": 2, "maxItems": 2}},
            "obstacles": {"type": "array", "maxItems": 16, "items": _OBSTACLE},
            "start": {"type": "array", "items": _NUMBER, "minItems": 2, "maxItems": 6},
            "target": _POINT,
            "tolerance": {"type": "number", "exclusiveMinimum": 0},
            "margin": {"type": "number", "exclusiveMinimum": 0},
            "hidden": {"type": "boolean"},
            "probe_budget": {"type": "integer", "minimum": 1},
            "motion_budget": {"type": "number", "exclusiveMinimum": 0},
        },
        "additionalProperties": False,
    }

    @staticmethod
    def extract_output(output_str: str) -> list[list[float]] | None:
        for block in reversed(fenced_blocks(output_str, max_chars=MAX_BLOCK_CHARS)):
            if '"waypoints"' in block:
                return parse_waypoints(block)
        return None

    @classmethod
    def _verify_correction(cls, extracted: list[list[float]], identity: dict[str, Any], **kwargs: Any) -> float:
        n = joint_count(identity)
        if any(len(q) != n for q in extracted):
            return 0.0
        world = world_for(identity)
        # the cheap checks first: limits, then the end point, then the dense replay
        if any(world.limit_violations(np.array(q)) for q in extracted):
            return 0.0
        end = world.end_effector(np.array(extracted[-1]))
        if float(np.linalg.norm(end - world.target)) > world.tolerance:
            return 0.0
        report = replay(identity, extracted, world, first_only=True)
        return 1.0 if report.valid else 0.0
