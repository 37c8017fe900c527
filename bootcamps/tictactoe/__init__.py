"""Bootcamp `tictactoe`: play X against a seeded opponent; the environment answers every move (no tools)."""
from pathlib import Path

from bc_common.bootcamp import Bootcamp

from .generator import TicTacToeInstructionGenerator
from .policy import TicTacToePolicy
from .reward import TicTacToeRewardCalculator

CONFIGS = Path(__file__).parent / "configs"

bootcamp = Bootcamp(
    name="tictactoe",
    description="Tic-tac-toe as X against a seeded opponent of set skill; the environment replies to each move.",
    generator=TicTacToeInstructionGenerator,
    reward=TicTacToeRewardCalculator,
    policy=TicTacToePolicy,
    interaction_config=CONFIGS / "interaction_config.yaml",
    instruction_config=CONFIGS / "instruction_config.yaml",
    default_config={},
)
