"""Bootcamp `sql_query`: answer a question about a generated SQLite database with one read-only query."""
from bc_common.bootcamp import Bootcamp, Group

from .generator import SqlQueryInstructionGenerator
from .policy import BASELINES, ShopSqlTool, SqlQueryPolicy
from .reward import SqlQueryRewardCalculator

bootcamp = Bootcamp(
    description="Answer a question about a generated shop database (SQLite) with one read-only SQL query.",
    generator=SqlQueryInstructionGenerator,
    reward=SqlQueryRewardCalculator,
    policy=SqlQueryPolicy,
    tools=[ShopSqlTool],
    groups=[
        Group("easy", {"level": "easy", "size": "small"}, ratio=0.35),
        Group("medium", {"level": "medium", "size": "medium"}, ratio=0.35),
        Group("hard", {"level": "hard", "size": "large"}, ratio=0.3),
    ],
    baselines=BASELINES,
    conformance={"n": 20, "signal_n": 20, "distinct_n": 200},
)
