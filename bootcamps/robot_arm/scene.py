"""The scene as MJCF: an arm of capsule links, box and sphere obstacles, and (spatial arm) the floor.

The identity's `arm` is "planar" (every joint axis vertical, the arm moves in the plane z = 0) or "spatial"
(a 6-joint anthropomorphic arm: base yaw, shoulder and elbow pitch, wrist roll and pitch, tool roll).
MuJoCo sums the margins of the two geoms of a pair, so each geom carries half the task's collision margin.
"""
from __future__ import annotations

from typing import Any

PLANAR = "planar"
SPATIAL = "spatial"
SPATIAL_LINKS = ("column", "upper_arm", "forearm", "hand", "tool")
# (joint name, axis, index of the link whose far end anchors it: -1 is the origin)
SPATIAL_JOINTS = (("base_yaw", "0 0 1", -1), ("shoulder_pitch", "0 1 0", 0), ("elbow_pitch", "0 1 0", 1),
                  ("wrist_roll", "1 0 0", 2), ("wrist_pitch", "0 1 0", 2), ("tool_roll", "1 0 0", 3))
# contype/conaffinity bits: the floor (2) meets every moving link (3) but not the column (1) standing on it
_COLUMN, _FLOOR, _MOVING = 1, 2, 3


def joint_count(identity: dict[str, Any]) -> int:
    return len(identity["links"]) if identity["arm"] == PLANAR else len(SPATIAL_JOINTS)


def link_names(identity: dict[str, Any]) -> list[str]:
    if identity["arm"] == PLANAR:
        return [f"link_{i + 1}" for i in range(len(identity["links"]))]
    return list(SPATIAL_LINKS)


def joint_names(identity: dict[str, Any]) -> list[str]:
    if identity["arm"] == PLANAR:
        return [f"joint_{i + 1}" for i in range(len(identity["links"]))]
    return [name for name, _axis, _anchor in SPATIAL_JOINTS]


def reach_radii(identity: dict[str, Any]) -> list[float]:
    """For each joint, a bound on the distance from its axis to any point of the links it moves.

    A rotation of dq about joint i moves no point more than R_i * |dq|, so a joint-space step dq moves no point
    of the arm more than sum_i R_i * |dq_i| (the bound that sets the path-checking step)."""
    lengths = [link["length"] for link in identity["links"]]
    radius = max(link["radius"] for link in identity["links"])
    if identity["arm"] == PLANAR:
        return [sum(lengths[i:]) + radius for i in range(len(lengths))]
    # a joint anchored at the far end of link k moves links k+1..; base yaw turns about the column's own axis
    return [sum(lengths[anchor + 1:]) + radius if anchor >= 0 else sum(lengths[1:]) + radius
            for _name, _axis, anchor in SPATIAL_JOINTS]


def obstacle_geom(obstacle: dict[str, Any], half_margin: float) -> str:
    pos = _vec(obstacle["pos"])
    size = _vec(obstacle["size"])
    yaw = f' euler="0 0 {obstacle.get("yaw", 0.0)!r}"' if obstacle["shape"] == "box" else ""
    return (f'<geom name="{obstacle["name"]}" type="{obstacle["shape"]}" pos="{pos}" size="{size}"{yaw}'
            f' margin="{half_margin!r}" contype="{_COLUMN}" conaffinity="{_COLUMN}"/>')


def mjcf(identity: dict[str, Any], obstacles: list[dict[str, Any]] | None = None) -> str:
    """The MJCF text of the scene; `obstacles` replaces the identity's (a planner's partial knowledge)."""
    half = identity["margin"] / 2
    obstacles = identity["obstacles"] if obstacles is None else obstacles
    world = [obstacle_geom(o, half) for o in obstacles]
    chain = _planar_chain(identity, half) if identity["arm"] == PLANAR else _spatial_chain(identity, half)
    if identity["arm"] == SPATIAL:
        world.insert(0, f'<geom name="floor" type="plane" size="0 0 1" margin="{half!r}" '
                        f'contype="{_FLOOR}" conaffinity="{_FLOOR}"/>')
    return ('<mujoco model="robot_arm">\n<compiler angle="radian" autolimits="true"/>\n'
            '<option gravity="0 0 0"/>\n<worldbody>\n' + "\n".join(world) + "\n" + chain
            + "\n</worldbody>\n</mujoco>\n")


def _vec(values: list[float]) -> str:
    return " ".join(repr(float(v)) for v in values)


def _joint(name: str, axis: str, limits: list[float]) -> str:
    return f'<joint name="{name}" type="hinge" axis="{axis}" range="{limits[0]!r} {limits[1]!r}"/>'


def _capsule(name: str, fromto: str, radius: float, half: float, bits: int) -> str:
    return (f'<geom name="{name}" type="capsule" fromto="{fromto}" size="{radius!r}" margin="{half!r}" '
            f'contype="{bits}" conaffinity="{bits}"/>')


def _planar_chain(identity: dict[str, Any], half: float) -> str:
    parts, closing, offset = [], [], 0.0
    for i, (link, limits) in enumerate(zip(identity["links"], identity["limits"], strict=True)):
        name = f"link_{i + 1}"
        parts.append(f'<body name="{name}" pos="{offset!r} 0 0">')
        parts.append(_joint(f"joint_{i + 1}", "0 0 1", limits))
        parts.append(_capsule(name, f"0 0 0 {link['length']!r} 0 0", link["radius"], half, _COLUMN))
        closing.append("</body>")
        offset = link["length"]
    parts.insert(-1, f'<site name="end_effector" pos="{offset!r} 0 0"/>')
    return "\n".join(parts + closing)


def _spatial_chain(identity: dict[str, Any], half: float) -> str:
    links, limits = identity["links"], identity["limits"]
    column, upper, fore, hand, tool = (link["length"] for link in links)
    j = [_joint(name, axis, lim) for (name, axis, _a), lim in zip(SPATIAL_JOINTS, limits, strict=True)]
    r = [link["radius"] for link in links]
    return "\n".join([
        '<body name="column" pos="0 0 0">', j[0],
        _capsule("column", f"0 0 0 0 0 {column!r}", r[0], half, _COLUMN),
        f'<body name="upper_arm" pos="0 0 {column!r}">', j[1],
        _capsule("upper_arm", f"0 0 0 {upper!r} 0 0", r[1], half, _MOVING),
        f'<body name="forearm" pos="{upper!r} 0 0">', j[2],
        _capsule("forearm", f"0 0 0 {fore!r} 0 0", r[2], half, _MOVING),
        # wrist roll and pitch share one body, so the hand is the forearm's child (touching, never colliding)
        f'<body name="hand" pos="{fore!r} 0 0">', j[3], j[4],
        _capsule("hand", f"0 0 0 {hand!r} 0 0", r[3], half, _MOVING),
        f'<body name="tool" pos="{hand!r} 0 0">', j[5],
        _capsule("tool", f"0 0 0 {tool!r} 0 0", r[4], half, _MOVING),
        f'<site name="end_effector" pos="{tool!r} 0 0"/>',
        "</body></body></body></body></body>",
    ])
