"""Bootcamp `financial_forecast`: forecast next year's three statements of a synthetic company, exactly."""
from bc_common.bootcamp import Baseline, Bootcamp, Group

from .baselines import CopyLastYearPolicy, LastDriversPolicy, ZeroForecastPolicy
from .generator import FinancialForecastInstructionGenerator
from .policy import FinancialForecastPolicy
from .reward import FinancialForecastRewardCalculator
from .tools import CheckForecastTool, LookupStatementTool, RatioTool

bootcamp = Bootcamp(
    description="Forecast a synthetic company's next-year statements from the trends of its reported drivers "
                "(read through a look-up tool) under stated financing terms and constraints; graded exactly.",
    generator=FinancialForecastInstructionGenerator,
    reward=FinancialForecastRewardCalculator,
    policy=FinancialForecastPolicy,
    tools=[LookupStatementTool, RatioTool, CheckForecastTool],
    baselines=[Baseline("zeros", ZeroForecastPolicy, "every line 0"),
               Baseline("copy_last", CopyLastYearPolicy, "last year's reported statements as the forecast"),
               Baseline("last_drivers", LastDriversPolicy, "last year's operating drivers carried forward, no trend")],
    groups=[Group("easy", {"history_years": 3, "noise": 0, "constraint_pressure": 0.0}, ratio=0.3),
            Group("medium", {"history_years": 4, "noise": 1, "constraint_pressure": 0.5}, ratio=0.4),
            Group("hard", {"history_years": 6, "noise": 2, "constraint_pressure": 1.0}, ratio=0.3)],
    limits={"max_assistant_turns": 8},  # look-ups, ratios and up to three checks before the answer
)
