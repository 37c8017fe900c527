"""Bootcamp `tictactoe`: k-in-a-row puzzles, X to move and win within N moves against a scripted defender; the
environment answers every move (no tools)."""
from bc_common.bootcamp import Baseline, Bootcamp, Group

from .baselines import FirstFreeMover, GreedyThreat, RandomMover, WinBlockCentre, WinBlockFork
from .generator import TicTacToeInstructionGenerator
from .interaction import TicTacToeInteraction
from .policy import TicTacToePolicy
from .reward import TicTacToeRewardCalculator
from .seats import TicTacToeMatch

bootcamp = Bootcamp(
    description="k-in-a-row puzzles (tic-tac-toe grown up): X to move wins within N moves against a scripted "
                "defender; the environment replies to each move.",
    generator=TicTacToeInstructionGenerator,
    reward=TicTacToeRewardCalculator,
    policy=TicTacToePolicy,
    interaction=TicTacToeInteraction,
    seats=TicTacToeMatch,  # bc-eval --opponent-model: a whole 3x3 game between two models
    baselines=[Baseline("random", RandomMover, "a random empty cell every turn"),
               Baseline("first_free", FirstFreeMover, "the empty cell with the lowest number"),
               Baseline("win_block_centre", WinBlockCentre, "take a win, else block, else the cell nearest the "
                        "centre"),
               Baseline("win_block_fork", WinBlockFork, "win, block, make two threats, block two threats, else "
                        "the centre (Newell and Simon's rules)"),
               Baseline("greedy_threat", GreedyThreat, "win, block, else the move making the most threats on the "
                        "longest lines")],
    # bigger boards, longer lines and longer wins; every group keeps only puzzles that no lazy rule wins
    groups=[
        Group("easy", {"n": 5, "k": 4, "moves": 3}, ratio=0.3),
        Group("medium", {"n": 6, "k": 4, "moves": 3}, ratio=0.4),
        Group("hard", {"n": 7, "k": 5, "moves": 4}, ratio=0.3),
    ],
    conformance={"n": 40},  # a puzzle takes 0.1-0.7 s to find
)
