"""Bootcamp `sudoku`: complete a 9x9 sudoku with one solution, graded by required techniques; a `check` tool."""
from bc_common.bootcamp import Bootcamp, Group

from .baselines import BASELINES
from .generator import SudokuInstructionGenerator
from .policy import SudokuPolicy
from .reward import SudokuRewardCalculator
from .tools import CheckTool

bootcamp = Bootcamp(
    description="Sudoku 9x9 with a unique solution, by required techniques (singles / subsets / beyond); check tool.",
    generator=SudokuInstructionGenerator,
    reward=SudokuRewardCalculator,
    policy=SudokuPolicy,
    tools=[CheckTool],
    groups=[
        Group("easy", {"level": 1, "min_givens": 30}, ratio=0.3),
        Group("medium", {"level": 2}, ratio=0.4),
        Group("hard", {"level": 3}, ratio=0.3),
    ],
    baselines=BASELINES,
)
