"""Bootcamp `minesweeper`: clear a hidden board through `reveal`/`flag` tools; boards need no guessing."""
from bc_common.bootcamp import Bootcamp, Group

from .generator import LIMITS, MinesweeperInstructionGenerator
from .policy import MinesweeperPolicy
from .reward import MinesweeperRewardCalculator
from .tools import FlagTool, RevealTool

bootcamp = Bootcamp(
    description="Minesweeper through reveal/flag tools on boards logic alone clears; 1.0 for clearing the board.",
    generator=MinesweeperInstructionGenerator,
    reward=MinesweeperRewardCalculator,
    policy=MinesweeperPolicy,
    tools=[RevealTool, FlagTool],
    groups=[
        Group("easy", {"rows": 7, "cols": 7, "mines": 7}, ratio=0.3),
        Group("medium", {"rows": 9, "cols": 9, "mines": 10}, ratio=0.4),
        Group("hard", {"rows": 16, "cols": 16, "mines": 40}, ratio=0.3),
    ],
    limits=LIMITS,
)
