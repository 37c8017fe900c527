"""The task as the model reads it: the arm's geometry and limits, the obstacles (unless hidden), the start, the
target, the collision rule, the tools and the exact answer format."""
from __future__ import annotations

from typing import Any

from .discovery import PROBE_BUDGET
from .scene import PLANAR, joint_names, link_names
from .world import MAX_WAYPOINTS

PLANAR_ARM = ("a planar arm with {n} revolute joints moving in the horizontal plane z = 0. joint_1 is at the "
              "origin and every joint axis is vertical (+z; positive angles turn counter-clockwise seen from "
              "above). At all-zero angles the links lie along +x, each joint at the far end of the previous "
              "link; the end effector is the far tip of the last link.")
SPATIAL_ARM = ("a 6-joint arm standing on the floor (z = 0). At all-zero angles: the column rises from the origin "
               "along +z; base_yaw (axis +z, at the origin) turns the whole arm; shoulder_pitch (axis +y, at the "
               "top of the column) carries the upper arm, which points along +x; elbow_pitch (axis +y, at the far "
               "end of the upper arm) carries the forearm (along +x); wrist_roll (axis +x, along the forearm) and "
               "then wrist_pitch (axis +y), both at the far end of the forearm, carry the hand (along +x); "
               "tool_roll (axis +x) at the far end of the hand carries the tool, whose far tip is the end "
               "effector. Each axis is expressed in the frame left by all earlier joints (so wrist_pitch's axis "
               "turns with wrist_roll); positive angles follow the right-hand rule, so a negative shoulder_pitch "
               "lifts the arm. The floor is an obstacle for every link but the column.")

TOOLS = ("Tools: `forward_kinematics(q)` gives the end effector's and the joints' positions for joint angles q; "
         "`check_collision(q)` lists the colliding pairs at q; `simulate_path(waypoints)` replays a path exactly "
         "as it is graded, stopping at the first contact as a real arm would (that collision and the obstacles in "
         "it, joint-limit violations, the final distance to the target). Reports name the obstacles the arm touches, with their shape, "
         "position and size. Budget in this task: `check_collision` and `simulate_path` answer {budget} calls "
         "each{motion}; `forward_kinematics` is unlimited.")


def _num(value: float) -> str:
    return repr(float(value) + 0.0)  # the identity's exact (rounded) numbers; never "-0.0"


def _vec(values: list[float]) -> str:
    return "[" + ", ".join(_num(v) for v in values) + "]"


def describe_obstacle(obstacle: dict[str, Any]) -> str:
    if obstacle["shape"] == "sphere":
        return f"- {obstacle['name']}: sphere, centre {_vec(obstacle['pos'])}, radius {_num(obstacle['size'][0])}"
    return (f"- {obstacle['name']}: box, centre {_vec(obstacle['pos'])}, half-extents {_vec(obstacle['size'])}, "
            f"turned {_num(obstacle['yaw'])} rad about +z")


def render_prompt(identity: dict[str, Any]) -> str:
    n = len(identity["limits"])
    planar = identity["arm"] == PLANAR
    rows = ["| link | length (m) | radius (m) |", "|---|---|---|"]
    rows += [f"| {name} | {_num(link['length'])} | {_num(link['radius'])} |"
             for name, link in zip(link_names(identity), identity["links"], strict=True)]
    joints = ["| joint | range (rad) |", "|---|---|"]
    joints += [f"| {name} | [{_num(lo)}, {_num(hi)}] |"
               for name, (lo, hi) in zip(joint_names(identity), identity["limits"], strict=True)]
    if identity["hidden"]:
        obstacles = ("The obstacles are hidden: none are listed here. The tools report every obstacle the arm "
                     "touches, and probes are few, so aim them at the path you mean to take.")
    elif identity["obstacles"]:
        obstacles = ("Obstacles (boxes are turned about +z by the given angle; sizes in metres):\n"
                     + "\n".join(describe_obstacle(o) for o in identity["obstacles"]))
    else:
        obstacles = "There are no obstacles."
    margin = identity["margin"]
    floor = "" if planar else ", to the floor"
    example = ", ".join(["[" + ", ".join(f"q{j + 1}" for j in range(n)) + "]"] * 2)
    return "\n\n".join([
        "Plan a collision-free motion that brings a robot arm's end effector to a target point.",
        "The arm is " + (PLANAR_ARM.format(n=n) if planar else SPATIAL_ARM) + " Links are capsules "
        "(a segment between two joints, with a radius):\n\n" + "\n".join(rows) + "\n\n" + "\n".join(joints),
        obstacles,
        f"Start configuration (rad): {_vec(identity['start'])}\n"
        f"Target point (m): {_vec(identity['target'])}; the end effector must end within "
        f"{_num(identity['tolerance'])} m of it.",
        f"Collision rule: a configuration collides when any link comes closer than {_num(margin)} m to an "
        f"obstacle{floor} or to a link other than its neighbours. The arm moves from the start configuration "
        "through the waypoints in order, along straight lines in joint space; the whole motion, between "
        "waypoints too, must stay collision-free, and every waypoint must lie within the joint ranges.",
        TOOLS.format(budget=identity.get("probe_budget", PROBE_BUDGET), motion=(
            f", and the paths you replay may move the joints {_num(identity['motion_budget'])} rad in all (the sum "
            "over calls, segments and joints of |change in angle|; a call that would exceed it is refused and "
            "costs nothing)" if "motion_budget" in identity else "")),
        f"Answer format: end your reply with one JSON block listing the waypoints after the start (1 to "
        f"{MAX_WAYPOINTS} of them), each a list of {n} joint angles in radians in the joint order above; the "
        "last one is where the end effector must be on target:\n"
        f"```json\n{{\"waypoints\": [{example}]}}\n```",
    ])
