"""Bootcamp `robot_arm`: plan a collision-free reach for a MuJoCo arm (planar or 6-DOF) among obstacles."""
from bc_common.bootcamp import Baseline, Bootcamp, Group, missing_extra

DESCRIPTION = ("Plan a collision-free joint-space path that brings a MuJoCo arm (planar or 6-DOF) to a target "
               "among listed obstacles, with budgeted FK, collision and path-replay tools.")

bootcamp = missing_extra("robotics", ["mujoco"], description=DESCRIPTION)
if bootcamp is None:
    from .baselines import (
        IgnoreObstaclesPolicy,
        OneReplayPolicy,
        RandomWaypointsPolicy,
        TuckPolicy,
    )
    from .generator import RobotArmInstructionGenerator
    from .policy import RobotArmPolicy
    from .reward import RobotArmRewardCalculator
    from .tools import CheckCollisionTool, ForwardKinematicsTool, SimulatePathTool

    bootcamp = Bootcamp(
        description=DESCRIPTION,
        generator=RobotArmInstructionGenerator,
        reward=RobotArmRewardCalculator,
        policy=RobotArmPolicy,
        tools=[ForwardKinematicsTool, CheckCollisionTool, SimulatePathTool],
        # blind_probe (BlindProbePolicy) is the blind spender of the hidden-obstacle variant (`hidden=true`), which
        # no default group uses: it farms 0.25-0.40 there (README, "Hidden obstacles")
        baselines=[Baseline("ignore_obstacles", IgnoreObstaclesPolicy, "the reach that ignores every obstacle"),
                   Baseline("random", RandomWaypointsPolicy, "two random configurations within the limits"),
                   Baseline("tuck", TuckPolicy, "a fixed detour over everything: fold the arm, turn the base, "
                            "unfold onto the reach that ignores every obstacle"),
                   Baseline("one_replay", OneReplayPolicy, "replays the reach that ignores every obstacle, then "
                            "answers the plan around what it revealed without replaying that")],
        groups=[
            # hug: obstacles close beside the goal posture; min_rounds 3: fixing the collision in the way, then the
            # next, is not enough (a plan around what two replays revealed still collides); overhead: "point
            # straight up, turn, come down" is blocked
            Group("easy", {"arm": "planar", "links": 3, "min_obstacles": 4, "max_obstacles": 6, "hug": 6,
                           "min_rounds": 3}, ratio=0.4),
            Group("medium", {"arm": "planar", "links": 4, "min_obstacles": 6, "max_obstacles": 8, "hug": 4,
                             "min_rounds": 3}, ratio=0.3),
            Group("hard", {"arm": "spatial", "min_obstacles": 6, "max_obstacles": 8, "hug": 4, "overhead": True,
                           "min_rounds": 3}, ratio=0.3),
        ],
        # planning and checking takes a model more turns than the harness's defaults (5 and 20)
        limits={"max_assistant_turns": 12, "max_user_turns": 40},
        # n: the attack checks' sample (default 200): a task costs 0.2-0.5 s CPU to draw and prove solvable
        conformance={"n": 60},
    )
