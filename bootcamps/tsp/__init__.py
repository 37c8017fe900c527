"""Bootcamp `tsp`: the shortest round trip through up to 15 cities, scored against the exact optimum."""
from bc_common.bootcamp import Bootcamp, Group

from .generator import TspInstructionGenerator
from .policy import TspPolicy
from .reward import TspRewardCalculator
from .tools import TourLengthTool

bootcamp = Bootcamp(
    description="Travelling salesman on up to 15 cities; score = optimal length / your tour's length.",
    generator=TspInstructionGenerator,
    reward=TspRewardCalculator,
    policy=TspPolicy,
    tools=[TourLengthTool],
    groups=[
        Group("easy", {"min_cities": 5, "max_cities": 7}, ratio=0.3),
        Group("medium", {"min_cities": 8, "max_cities": 10}, ratio=0.4),
        Group("hard", {"min_cities": 11, "max_cities": 13}, ratio=0.3),
    ],
)
