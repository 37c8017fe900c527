"""Bootcamp `knapsack`: 0/1 knapsack scored by the gap closed between greedy heuristics and the exact optimum."""
from bc_common.bootcamp import Bootcamp, Group

from .baselines import BASELINES
from .generator import KnapsackInstructionGenerator
from .policy import KnapsackPolicy
from .reward import KnapsackRewardCalculator
from .tools import EvaluateSelectionTool

bootcamp = Bootcamp(
    description="0/1 knapsack with integer weights; score = gap closed from the greedy heuristics' best to the optimum.",
    generator=KnapsackInstructionGenerator,
    reward=KnapsackRewardCalculator,
    policy=KnapsackPolicy,
    tools=[EvaluateSelectionTool],
    groups=[
        Group("easy", {"min_items": 6, "max_items": 10, "max_weight": 50, "correlation": "weak"}, ratio=0.3),
        Group("medium", {"min_items": 12, "max_items": 18, "max_weight": 100, "correlation": "weak"}, ratio=0.4),
        Group("hard", {"min_items": 20, "max_items": 28, "max_weight": 100, "correlation": "inverse"}, ratio=0.3),
    ],
    baselines=BASELINES,
)
