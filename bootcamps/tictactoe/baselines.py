"""Baselines: the cheap rules a model plays first (heuristics.RULES), each on the board rebuilt from its own
moves; it picks among the cells its rule allows with its random stream."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import ReferencePolicy, assistant_texts

from .game import moves_in
from .heuristics import RULES
from .puzzle import Puzzle, play, to_masks


class _RulePolicy(ReferencePolicy):
    """Plays `RULES[rule]` on the current board; says so when the game is over."""

    rule = ""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        puzzle = Puzzle.of(self.identity)
        game = play(puzzle, moves_in(assistant_texts(messages)))
        if game.result != "unfinished":
            return {"role": "assistant", "content": f"The game is over ({game.result})."}
        x, o = to_masks(game.board)
        move = self.rng.choice(RULES[self.rule](x, o, puzzle.n, puzzle.k)) + 1
        return {"role": "assistant", "content": f"I play {move}.\n<move>{move}</move>"}


class RandomMover(_RulePolicy):
    """Baseline: a random empty cell every turn."""

    rule = "random"


class FirstFreeMover(_RulePolicy):
    """Baseline: the empty cell with the lowest number."""

    rule = "first_free"


class WinBlockCentre(_RulePolicy):
    """Baseline: take a win, else block, else the free cell nearest the centre."""

    rule = "win_block_centre"


class WinBlockFork(_RulePolicy):
    """Baseline: win, block, make two threats, block two threats, else the centre."""

    rule = "win_block_fork"


class GreedyThreat(_RulePolicy):
    """Baseline: win, block, else the move making the most threats on the longest lines."""

    rule = "greedy_threat"
