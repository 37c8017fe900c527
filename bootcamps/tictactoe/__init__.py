"""Bootcamp `tictactoe`: play X against a seeded opponent; the environment answers every move (no tools)."""
from bc_common.bootcamp import Bootcamp, Group

from .generator import TicTacToeInstructionGenerator
from .interaction import TicTacToeInteraction
from .policy import TicTacToePolicy
from .reward import TicTacToeRewardCalculator

bootcamp = Bootcamp(
    description="Tic-tac-toe as X against a seeded opponent of set skill; the environment replies to each move.",
    generator=TicTacToeInstructionGenerator,
    reward=TicTacToeRewardCalculator,
    policy=TicTacToePolicy,
    interaction=TicTacToeInteraction,
    # opponent skill = probability of a minimax-optimal move; O opens with probability o_starts
    groups=[
        Group("easy", {"min_skill": 0.0, "max_skill": 0.3, "o_starts": 0.3}, ratio=0.3),
        Group("medium", {"min_skill": 0.4, "max_skill": 0.7, "o_starts": 0.5}, ratio=0.4),
        Group("hard", {"min_skill": 0.8, "max_skill": 1.0, "o_starts": 0.7}, ratio=0.3),
    ],
)
