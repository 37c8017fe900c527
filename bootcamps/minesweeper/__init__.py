"""Bootcamp `minesweeper`: clear a hidden board through `reveal`/`flag` tools; boards need no guessing."""
from bc_common.bootcamp import Bootcamp, Group

from .baselines import BASELINES
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
    baselines=BASELINES,
    # the board is hidden: a prompt shows only the board size and the start cell, so prompts repeat once a group
    # has more tasks than cells (the mines, and so the tasks, differ: identities stay distinct)
    conformance={"prompt_space": {"easy": 7 * 7, "medium": 9 * 9, "hard": 16 * 16}},
)
