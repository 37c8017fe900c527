"""Bootcamp `arithmetic`: evaluate + - × ÷ expressions with a calculator tool and retry feedback."""
from bc_common.bootcamp import Baseline, Bootcamp, Group

from .baselines import FirstNumber, FirstSteps, WholeExpression
from .generator import ArithmeticInstructionGenerator
from .interaction import ArithmeticInteraction
from .policy import ArithmeticPolicy
from .reward import ArithmeticRewardCalculator
from .tools import CalculatorTool

bootcamp = Bootcamp(
    description="Evaluate + - × ÷ expressions exactly with a two-operation calculator; feedback and retries.",
    generator=ArithmeticInstructionGenerator,
    reward=ArithmeticRewardCalculator,
    policy=ArithmeticPolicy,
    tools=[CalculatorTool],
    interaction=ArithmeticInteraction,
    baselines=[Baseline("first_number", FirstNumber, "answers the expression's first number, no tools"),
               Baseline("whole_expression", WholeExpression, "one calculator call on the whole expression"),
               Baseline("first_steps", FirstSteps, "one calculator call on the first three numbers")],
    # every group has more than two operations (more than one calculator call); harder groups more calls, digits
    # and parentheses
    groups=[
        Group("easy", {"min_terms": 4, "max_terms": 5, "min_digits": 1, "max_digits": 2, "parentheses": 0.0},
              ratio=0.3),
        Group("medium", {"min_terms": 6, "max_terms": 8, "min_digits": 2, "max_digits": 4}, ratio=0.5),
        Group("hard", {"min_terms": 9, "max_terms": 12, "min_digits": 3, "max_digits": 6, "parentheses": 0.6},
              ratio=0.2),
    ],
    # three attempts of up to one turn per operation and one answer each
    limits={"max_assistant_turns": 40, "max_tool_calls": 64},
)
