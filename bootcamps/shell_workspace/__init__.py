"""Bootcamp `shell_workspace`: do a chore in a generated file tree with a shell script, graded by the final state."""
from bc_common.bootcamp import Bootcamp, Group

from .generator import ShellWorkspaceInstructionGenerator
from .policy import BASELINES, ShellWorkspacePolicy, WorkspaceShell
from .reward import ShellWorkspaceRewardCalculator

bootcamp = Bootcamp(
    description="Do a chore in a generated folder of logs, CSVs and configs with a shell script; graded by the "
                "folder's final state after the script runs in a sandbox.",
    generator=ShellWorkspaceInstructionGenerator,
    reward=ShellWorkspaceRewardCalculator,
    policy=ShellWorkspacePolicy,
    tools=[WorkspaceShell],
    groups=[
        Group("easy", {"level": "easy", "size": "small"}, ratio=0.35),
        Group("medium", {"level": "medium", "size": "medium"}, ratio=0.35),
        Group("hard", {"level": "hard", "size": "large"}, ratio=0.3),
    ],
    baselines=BASELINES,
    conformance={"n": 16, "signal_n": 20, "distinct_n": 200},
)
