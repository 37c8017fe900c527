"""Bootcamp `chart_read`: read exact answers off rendered bar, line and scatter charts (a visual task)."""
from bc_common.bootcamp import Baseline, Bootcamp, Group

from .baselines import LegendFirst, TextOnly
from .generator import ChartReadInstructionGenerator
from .policy import ChartReadPolicy
from .reward import ChartReadRewardCalculator

bootcamp = Bootcamp(
    description="Read a rendered bar, line or scatter chart: the largest series at x, a difference, the trend.",
    generator=ChartReadInstructionGenerator,
    reward=ChartReadRewardCalculator,
    policy=ChartReadPolicy,
    baselines=[Baseline("text_only", TextOnly, "never looks at the picture: 0, or a name the question states",
                        blind=True),
               Baseline("legend_first", LegendFirst, "reads only the legend: the first series, rising; 0 for a "
                                                     "difference")],
    groups=[
        Group("easy", {"kinds": "bar", "min_series": 2, "max_series": 2, "points": 4, "gap": 10}, ratio=0.3),
        Group("medium", {"kinds": "bar,line", "min_series": 2, "max_series": 3, "points": 6, "gap": 6}, ratio=0.4),
        Group("hard", {"kinds": "line,scatter", "min_series": 3, "max_series": 4, "points": 8, "gap": 3},
              ratio=0.3),
    ],
)
