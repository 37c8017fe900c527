"""Bootcamp `container_water`: the container with most water, read from a bar chart (a visual task)."""
from bc_common.bootcamp import Bootcamp, Group

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
    groups=[
        Group("easy", {"min_bars": 6, "max_bars": 10, "max_height": 60, "labelled": True}, ratio=0.3),
        Group("medium", {"min_bars": 10, "max_bars": 16, "max_height": 99, "labelled": True}, ratio=0.4),
        Group("hard", {"min_bars": 16, "max_bars": 28, "max_height": 150, "labelled": False}, ratio=0.3),
    ],
)
