"""Bootcamp `knapsack`: 0/1 knapsack scored against the exact optimum, with a selection-checking tool."""
from bc_common.bootcamp import Bootcamp, Group

from .generator import KnapsackInstructionGenerator
from .policy import KnapsackPolicy
from .reward import KnapsackRewardCalculator
from .tools import EvaluateSelectionTool

bootcamp = Bootcamp(
    description="0/1 knapsack with integer weights; score = your value / the optimal value, 0 when overweight.",
    generator=KnapsackInstructionGenerator,
    reward=KnapsackRewardCalculator,
    policy=KnapsackPolicy,
    tools=[EvaluateSelectionTool],
    groups=[
        Group("easy", {"min_items": 6, "max_items": 10, "max_weight": 50, "correlation": "uncorrelated"},
              ratio=0.3),
        Group("medium", {"min_items": 12, "max_items": 20, "max_weight": 100, "correlation": "weak"}, ratio=0.4),
        Group("hard", {"min_items": 25, "max_items": 35, "max_weight": 300, "correlation": "strong"}, ratio=0.3),
    ],
)
