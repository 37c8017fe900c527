"""Bootcamp `financial_forecast`: forecast next year's three statements of a synthetic company, exactly."""
from bc_common.bootcamp import Bootcamp, Group

from .generator import FinancialForecastInstructionGenerator
from .policy import FinancialForecastPolicy
from .reward import FinancialForecastRewardCalculator
from .tools import CheckForecastTool, LookupStatementTool, RatioTool

bootcamp = Bootcamp(
    description="Forecast a synthetic company's next-year statements under stated assumptions and constraints; "
                "look-up, ratio and check tools; identities, figures and constraints graded exactly.",
    generator=FinancialForecastInstructionGenerator,
    reward=FinancialForecastRewardCalculator,
    policy=FinancialForecastPolicy,
    tools=[LookupStatementTool, RatioTool, CheckForecastTool],
    groups=[Group("easy", {"history_years": 2, "constraint_pressure": 0.0}, ratio=0.3),
            Group("medium", {"history_years": 3, "constraint_pressure": 0.5}, ratio=0.4),
            Group("hard", {"history_years": 5, "constraint_pressure": 1.0}, ratio=0.3)],
    limits={"max_assistant_turns": 8},  # look-ups, ratios and up to three checks before the answer
)
