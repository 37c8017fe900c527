"""k-in-a-row puzzles: X to move wins within a stated number of moves against a scripted defender."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bc_common.bootcamp import InstructionGenerator

from .heuristics import FILTERED, success_chance
from .positions import plant
from .puzzle import has_line, render, shortest_win, to_board, wins_mask

RULES_TEXT = ("Reply with exactly one move per turn, written as <move>N</move> where N is the number of an empty "
              "cell. After each of your moves I answer with mine and the new board. {k} in a row (a row, a column "
              "or a diagonal) wins. You succeed only if you complete a line of {k} within your next {moves} moves; "
              "a forced win exists whatever I play. An occupied cell, a number no cell shows or a reply without a "
              "move loses at once.")

PROMPT_TEMPLATES = (
    "A {n}x{n} board, {k} in a row wins. You are X, I am O, and it is your move.\n\n{board}\n\n{rules}",
    "Puzzle: X to move and win within {moves} moves on this {n}x{n} board ({k} in a row wins). You play X, I "
    "defend as O. Every empty cell shows its number.\n\n{board}\n\n{rules}",
    "You are X in a game of {k}-in-a-row on a {n}x{n} board against me (O). Your move.\n\nBoard:\n{board}\n\n"
    "{rules}",
)
MAX_ATTEMPTS = 20_000  # a draw almost always succeeds within a few hundred


class PuzzleNotFound(RuntimeError):
    """No puzzle fitting the parameters in MAX_ATTEMPTS draws (a board too small for the lines asked)."""


@dataclass
class TicTacToeConfig:
    n: int = 5  # the board is n x n
    k: int = 4  # stones in a row that win
    moves: int = 3  # X wins within this many of its moves, and no sooner

    def validate(self) -> None:
        if not 4 <= self.k <= self.n <= 9:
            raise ValueError("need 4 <= k <= n <= 9")
        if not 3 <= self.moves <= 5:
            raise ValueError("moves must be 3, 4 or 5 (fewer: every lazy rule finds the win)")


class TicTacToeInstructionGenerator(InstructionGenerator):
    """Identity: {n, k, moves, board, seed}: the position (row by row, X / O / '.'), X to move, and the
    defender's seed. Kept only when X's shortest forced win takes exactly `moves` moves and none of the lazy
    rules (heuristics.FILTERED) can win it."""

    Config = TicTacToeConfig

    def case_generator(self) -> dict[str, Any]:
        n, k, moves = self.n, self.k, self.moves
        for _ in range(MAX_ATTEMPTS):
            position = plant(self.rng, n, k, moves)
            if position is None:
                continue
            x, o = position
            if has_line(x, n, k) or has_line(o, n, k) or wins_mask(o, x, n, k).bit_count() > 1:
                continue
            shortest = shortest_win(x, o, n, k, moves)
            if shortest is None or shortest[0] != moves:
                continue
            seed = self.rng.getrandbits(32)
            if any(success_chance(rule, n, k, moves, seed, x, o) > 0 for rule in FILTERED):
                continue
            return {"n": n, "k": k, "moves": moves, "board": to_board(x, o, n), "seed": seed}
        raise PuzzleNotFound(f"no {n}x{n} puzzle with {k} in a row and a {moves}-move win in {MAX_ATTEMPTS} draws")

    def prompt_func(self, identity: dict[str, Any]) -> str:
        n, k, moves = identity["n"], identity["k"], identity["moves"]
        template = PROMPT_TEMPLATES[self.rng.randrange(len(PROMPT_TEMPLATES))]
        return template.format(n=n, k=k, moves=moves, board=render(identity["board"], n),
                               rules=RULES_TEXT.format(k=k, moves=moves))
