"""Bootcamp `game24`: combine the given numbers with + - × ÷ into the target; an optional calculator tool."""
from bc_common.bootcamp import Bootcamp, Group

from .baselines import BASELINES
from .generator import Game24InstructionGenerator
from .policy import Game24Policy
from .reward import Game24RewardCalculator
from .tools import CalculateTool

bootcamp = Bootcamp(
    description="24 game: use every given number once with + - × ÷ to hit a drawn target exactly; calculator tool.",
    generator=Game24InstructionGenerator,
    reward=Game24RewardCalculator,
    policy=Game24Policy,
    tools=[CalculateTool],
    groups=[
        Group("easy", {"count": 4, "min_value": 1, "max_value": 13, "min_target": 12, "max_target": 99}, ratio=0.3),
        Group("medium", {"count": 4, "min_value": 1, "max_value": 13, "min_target": 24, "max_target": 120},
              ratio=0.4),
        Group("hard", {"count": 5, "min_value": 1, "max_value": 30, "min_target": 30, "max_target": 150},
              ratio=0.3),
    ],
    baselines=BASELINES,
)
