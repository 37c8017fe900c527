"""Bootcamp `code_repair`: fix the seeded bug of a function; hidden randomized tests run in the sandbox."""
from bc_common.bootcamp import Bootcamp, Group
from bc_common.code_tools import RunTestsTool

from .generator import CodeRepairInstructionGenerator
from .policy import BASELINES, CodeRepairPolicy
from .reward import CodeRepairRewardCalculator

bootcamp = Bootcamp(
    description="Fix the one seeded bug of a Python function shown with a failing test; graded by hidden tests in "
                "a sandbox.",
    generator=CodeRepairInstructionGenerator,
    reward=CodeRepairRewardCalculator,
    policy=CodeRepairPolicy,
    tools=[RunTestsTool],
    groups=[
        Group("easy", {"level": "easy", "size": "small"}, ratio=0.35),
        Group("medium", {"level": "medium", "size": "medium"}, ratio=0.35),
        Group("hard", {"level": "hard", "size": "large"}, ratio=0.3),
    ],
    baselines=BASELINES,
    conformance={"n": 20, "signal_n": 20},  # n: the attack checks grade n x n sandboxed runs (CI budget)
)
