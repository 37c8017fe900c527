"""The scene as MJCF: an arm of capsule links, box and sphere obstacles, and (spatial arm) the floor.

The identity's `arm` is "planar" (every joint axis vertical, the arm moves in the plane z = 0) or "spatial"
(a 6-joint anthropomorphic arm: base yaw, shoulder and elbow pitch, wrist roll and pitch, tool roll).
Collisions are explicit `<pair>`s carrying the task's margin (so MuJoCo's rule for combining two geoms' margins
never matters): every link with every obstacle, every moving link with the floor, and every two links that are
not parent and child (self-collision).
"""
from __future__ import annotations

from typing import Any

PLANAR = "planar"
SPATIAL = "spatial"
SPATIAL_LINKS = ("column", "upper_arm", "forearm", "hand", "tool")
# (joint name, axis, index of the link whose far end anchors it: -1 is the origin)
SPATIAL_JOINTS = (("base_yaw", "0 0 1", -1), ("shoulder_pitch", "0 1 0", 0), ("elbow_pitch", "0 1 0", 1),
                  ("wrist_roll", "1 0 0", 2), ("wrist_pitch", "0 1 0", 2), ("tool_roll", "1 0 0", 3))


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


def obstacle_geom(obstacle: dict[str, Any]) -> str:
    pos = _vec(obstacle["pos"])
    size = _vec(obstacle["size"])
    yaw = f' euler="0 0 {obstacle.get("yaw", 0.0)!r}"' if obstacle["shape"] == "box" else ""
    return f'<geom name="{obstacle["name"]}" type="{obstacle["shape"]}" pos="{pos}" size="{size}"{yaw}/>'


def collision_pairs(identity: dict[str, Any], obstacles: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """Every geom pair that may not come closer than the margin."""
    links = link_names(identity)
    pairs = [(link, o["name"]) for link in links for o in obstacles]
    pairs += [(a, b) for i, a in enumerate(links) for b in links[i + 2:]]  # links that are not parent and child
    if identity["arm"] == SPATIAL:
        pairs += [(link, "floor") for link in links[1:]]  # the column stands on the floor
    return pairs


def mjcf(identity: dict[str, Any], obstacles: list[dict[str, Any]] | None = None) -> str:
    """The MJCF text of the scene; `obstacles` replaces the identity's (a planner's partial knowledge)."""
    obstacles = identity["obstacles"] if obstacles is None else obstacles
    world = [obstacle_geom(o) for o in obstacles]
    chain = _planar_chain(identity) if identity["arm"] == PLANAR else _spatial_chain(identity)
    if identity["arm"] == SPATIAL:
        world.insert(0, '<geom name="floor" type="plane" size="0 0 1"/>')
    margin = float(identity["margin"])
    pairs = "\n".join(f'<pair geom1="{a}" geom2="{b}" margin="{margin!r}"/>'
                      for a, b in collision_pairs(identity, obstacles))
    return ('<mujoco model="robot_arm">\n<compiler angle="radian" autolimits="true"/>\n'
            '<option gravity="0 0 0"/>\n<default><geom contype="0" conaffinity="0"/></default>\n'
            '<worldbody>\n' + "\n".join(world) + "\n" + chain + "\n</worldbody>\n"
            "<contact>\n" + pairs + "\n</contact>\n</mujoco>\n")


def _vec(values: list[float]) -> str:
    return " ".join(repr(float(v)) for v in values)


def _joint(name: str, axis: str, limits: list[float]) -> str:
    return f'<joint name="{name}" type="hinge" axis="{axis}" range="{limits[0]!r} {limits[1]!r}"/>'


def _capsule(name: str, fromto: str, radius: float) -> str:
    return f'<geom name="{name}" type="capsule" fromto="{fromto}" size="{radius!r}"/>'


def _planar_chain(identity: dict[str, Any]) -> str:
    parts, closing, offset = [], [], 0.0
    for i, (link, limits) in enumerate(zip(identity["links"], identity["limits"], strict=True)):
        name = f"link_{i + 1}"
        parts.append(f'<body name="{name}" pos="{offset!r} 0 0">')
        parts.append(_joint(f"joint_{i + 1}", "0 0 1", limits))
        parts.append(_capsule(name, f"0 0 0 {link['length']!r} 0 0", link["radius"]))
        closing.append("</body>")
        offset = link["length"]
    parts.insert(-1, f'<site name="end_effector" pos="{offset!r} 0 0"/>')
    return "\n".join(parts + closing)


def _spatial_chain(identity: dict[str, Any]) -> str:
    links, limits = identity["links"], identity["limits"]
    column, upper, fore, hand, tool = (link["length"] for link in links)
    j = [_joint(name, axis, lim) for (name, axis, _a), lim in zip(SPATIAL_JOINTS, limits, strict=True)]
    r = [link["radius"] for link in links]
    return "\n".join([
        '<body name="column" pos="0 0 0">', j[0],
        _capsule("column", f"0 0 0 0 0 {column!r}", r[0]),
        f'<body name="upper_arm" pos="0 0 {column!r}">', j[1],
        _capsule("upper_arm", f"0 0 0 {upper!r} 0 0", r[1]),
        f'<body name="forearm" pos="{upper!r} 0 0">', j[2],
        _capsule("forearm", f"0 0 0 {fore!r} 0 0", r[2]),
        # wrist roll and pitch share one body, so the hand is the forearm's child (they touch at the wrist)
        f'<body name="hand" pos="{fore!r} 0 0">', j[3], j[4],
        _capsule("hand", f"0 0 0 {hand!r} 0 0", r[3]),
        f'<body name="tool" pos="{hand!r} 0 0">', j[5],
        _capsule("tool", f"0 0 0 {tool!r} 0 0", r[4]),
        f'<site name="end_effector" pos="{tool!r} 0 0"/>',
        "</body></body></body></body></body>",
    ])
