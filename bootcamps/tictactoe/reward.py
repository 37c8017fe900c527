"""Grades the whole game: X's moves from every assistant text, replayed against the identity's O."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import RewardCalculator

from .game import labels_of, moves_in, replay
from .puzzle import Puzzle, play


def is_puzzle(identity: dict[str, Any]) -> bool:
    """A k-in-a-row puzzle (`board` in the identity); otherwise a whole 3x3 game of the rows made before them."""
    return "board" in identity


class TicTacToeRewardCalculator(RewardCalculator):
    """Puzzles: 1.0 when X completes a line within the identity's `moves` moves, else 0 (a loss, an illegal
    move, a move after the game ended, an unfinished game). Whole 3x3 games (rows made before the puzzles): 1.0
    for the best result the opponent's play allowed. Reads only the assistant's texts (the last
    `<move>N</move>` of each), never the environment's."""

    grades = "all"
    identity_schema = {  # kept to the simple form the fast acceptor reads; the rest is checked below
        "type": "object",
        "required": ["seed"],
        "properties": {"seed": {"type": "integer"}, "skill": {"type": "number"}, "first": {"type": "string"},
                       "labels": {"type": "array"}, "n": {"type": "integer"}, "k": {"type": "integer"},
                       "moves": {"type": "integer"}, "board": {"type": "string"}},
    }

    @classmethod
    def check_identity(cls, identity: dict[str, Any]) -> None:
        if identity["seed"] < 0:
            raise ValueError(f"seed: must be >= 0, got {identity['seed']}")
        if is_puzzle(identity):
            for key in ("n", "k", "moves"):
                if key not in identity:
                    raise ValueError(f"{key}: missing (a puzzle needs n, k, moves, board, seed)")
            Puzzle.of(identity)  # raises naming the key
            return
        for key in ("skill", "first"):
            if key not in identity:
                raise ValueError(f"{key}: missing (a whole game needs seed, skill, first)")
        if not 0 <= identity["skill"] <= 1:
            raise ValueError(f"skill: must be in [0, 1], got {identity['skill']}")
        if identity["first"] not in ("X", "O"):
            raise ValueError(f"first: must be 'X' or 'O', got {identity['first']!r}")
        if "labels" in identity:
            labels_of(identity)  # raises "labels must be a permutation of the numbers 1-9"

    @staticmethod
    def extract_output(output_str: Any) -> list[int | None] | None:
        texts = [output_str] if isinstance(output_str, str) else list(output_str)
        moves = moves_in(t for t in texts if isinstance(t, str))
        return moves or None

    @classmethod
    def _verify_correction(cls, extracted: list[int | None], identity: dict[str, Any], **kwargs: Any) -> float:
        if is_puzzle(identity):
            return 1.0 if play(Puzzle.of(identity), extracted).solved else 0.0
        return 1.0 if replay(identity, extracted).solved else 0.0
