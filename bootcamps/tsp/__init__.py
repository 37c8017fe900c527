"""Bootcamp `tsp`: the shortest round trip through 30 to 48 cities, scored by the gap closed from the cheap
heuristics' best tour to the best tour a long search found."""
from bc_common.bootcamp import Bootcamp, Group

from .baselines import BASELINES
from .generator import TspInstructionGenerator
from .policy import TspPolicy
from .reward import TspRewardCalculator
from .tools import TourLengthTool

bootcamp = Bootcamp(
    description="Travelling salesman on 30-48 cities; score = gap closed from the heuristics' best to the best known.",
    generator=TspInstructionGenerator,
    reward=TspRewardCalculator,
    policy=TspPolicy,
    tools=[TourLengthTool],
    groups=[
        Group("easy", {"min_cities": 30, "max_cities": 34}, ratio=0.3),
        Group("medium", {"min_cities": 35, "max_cities": 41}, ratio=0.4),
        Group("hard", {"min_cities": 42, "max_cities": 48}, ratio=0.3),
    ],
    baselines=BASELINES,
    # generation keeps about 1 draw in 4-15 (1.5-2 rows/s on one core): samples kept small; distinctness counts
    # the signal rows (random points on a 301 x 301 grid do not repeat)
    conformance={"n": 50, "signal_n": 20, "distinct_n": 20},
)
