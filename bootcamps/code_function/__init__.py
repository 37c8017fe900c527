"""Bootcamp `code_function`: implement a function from its spec; hidden randomized tests run in the sandbox."""
from bc_common.bootcamp import Bootcamp, Group
from bc_common.code_tools import RunTestsTool

from .generator import CodeFunctionInstructionGenerator
from .policy import BASELINES, CodeFunctionPolicy
from .reward import CodeFunctionRewardCalculator

bootcamp = Bootcamp(
    description="Write a Python function from a spec and three examples; graded by hidden tests in a sandbox.",
    generator=CodeFunctionInstructionGenerator,
    reward=CodeFunctionRewardCalculator,
    policy=CodeFunctionPolicy,
    tools=[RunTestsTool],
    groups=[
        Group("easy", {"level": "easy", "size": "small"}, ratio=0.35),
        Group("medium", {"level": "medium", "size": "medium"}, ratio=0.35),
        Group("hard", {"level": "hard", "size": "large"}, ratio=0.3),
    ],
    baselines=BASELINES,
    conformance={"n": 20, "signal_n": 20},  # n: the attack checks grade n x n sandboxed runs (CI budget)
)
