"""Bootcamp `container_water`: the container with most water, read from a bar chart (a visual task)."""
from bc_common.bootcamp import Baseline, Bootcamp, Group

from .baselines import BlindMeasure, TextGuess
from .generator import ContainerWaterInstructionGenerator
from .policy import ContainerWaterPolicy
from .reward import ContainerWaterRewardCalculator
from .tools import MeasureBarTool

bootcamp = Bootcamp(
    description="Container with most water from a bar-chart picture: the largest (j - i) x min(h_i, h_j).",
    generator=ContainerWaterInstructionGenerator,
    reward=ContainerWaterRewardCalculator,
    policy=ContainerWaterPolicy,
    tools=[MeasureBarTool],
    baselines=[Baseline("text_guess", TextGuess, "no picture, no tool: a typical area for the stated bar count",
                        blind=True),
               Baseline("blind_measure", BlindMeasure, "spends the measuring budget without the picture, then "
                                                       "answers from what it got", blind=True)],
    # the tool takes the tag printed under a bar (only in the picture) and has a budget of measurements
    groups=[
        Group("easy", {"min_bars": 6, "max_bars": 10, "max_height": 60, "labelled": True, "measurements": 2},
              ratio=0.3),
        Group("medium", {"min_bars": 10, "max_bars": 16, "max_height": 99, "labelled": True, "measurements": 2},
              ratio=0.4),
        Group("hard", {"min_bars": 16, "max_bars": 28, "max_height": 150, "labelled": False, "measurements": 4},
              ratio=0.3),
    ],
)
