"""Bootcamp `robot_arm`: plan a collision-free reach for a MuJoCo arm (planar or 6-DOF) among obstacles."""
from bc_common.bootcamp import Bootcamp, Group, missing_extra

DESCRIPTION = ("Plan a collision-free joint-space path that brings a MuJoCo arm (planar or 6-DOF) to a target "
               "among obstacles, visible or found through FK, collision and path-replay tools.")

bootcamp = missing_extra("robotics", ["mujoco"], description=DESCRIPTION)
if bootcamp is None:
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
        groups=[
            Group("easy", {"arm": "planar", "links": 3, "min_obstacles": 2, "max_obstacles": 3, "hidden": False},
                  ratio=0.4),
            Group("medium", {"arm": "planar", "links": 4, "min_obstacles": 2, "max_obstacles": 4, "hidden": True},
                  ratio=0.3),
            Group("hard", {"arm": "spatial", "min_obstacles": 3, "max_obstacles": 5, "hidden": True}, ratio=0.3),
        ],
        # probing hidden obstacles takes a model more turns than the harness's defaults (5 and 20)
        limits={"max_assistant_turns": 12, "max_user_turns": 40},
    )
