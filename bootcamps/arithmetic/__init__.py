"""Bootcamp `arithmetic`: evaluate + - × ÷ expressions with a calculator tool and retry feedback."""
from bc_common.bootcamp import Bootcamp, Group

from .generator import ArithmeticInstructionGenerator
from .interaction import ArithmeticInteraction
from .policy import ArithmeticPolicy
from .reward import ArithmeticRewardCalculator
from .tools import CalculatorTool

bootcamp = Bootcamp(
    description="Evaluate + - × ÷ expressions exactly; calculator tool; feedback and retries on wrong answers.",
    generator=ArithmeticInstructionGenerator,
    reward=ArithmeticRewardCalculator,
    policy=ArithmeticPolicy,
    tools=[CalculatorTool],
    interaction=ArithmeticInteraction,
    groups=[
        Group("easy", {"min_terms": 2, "max_terms": 3, "min_digits": 1, "max_digits": 2, "parentheses": 0.0},
              ratio=0.3),
        Group("medium", {"min_terms": 3, "max_terms": 6, "min_digits": 2, "max_digits": 4}, ratio=0.5),
        Group("hard", {"min_terms": 6, "max_terms": 12, "min_digits": 3, "max_digits": 6, "parentheses": 0.6},
              ratio=0.2),
    ],
)
