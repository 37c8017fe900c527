"""Grades the whole game: X's moves from every assistant text, replayed against the identity's opponent."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import RewardCalculator

from .game import moves_in, replay


class TicTacToeRewardCalculator(RewardCalculator):
    """1.0 when X wins or draws; 0 for a loss, an illegal move (or one after the game ended), or an unfinished
    game. Reads only the assistant's texts (the last `<move>N</move>` of each), never the environment's."""

    grades = "all"
    identity_schema = {  # kept to the simple form the fast acceptor reads; ranges are checked below
        "type": "object",
        "required": ["seed", "skill", "first"],
        "properties": {"seed": {"type": "integer"}, "skill": {"type": "number"}, "first": {"type": "string"}},
    }

    @classmethod
    def check_identity(cls, identity: dict[str, Any]) -> None:
        if identity["seed"] < 0:
            raise ValueError(f"seed: must be >= 0, got {identity['seed']}")
        if not 0 <= identity["skill"] <= 1:
            raise ValueError(f"skill: must be in [0, 1], got {identity['skill']}")
        if identity["first"] not in ("X", "O"):
            raise ValueError(f"first: must be 'X' or 'O', got {identity['first']!r}")

    @staticmethod
    def extract_output(output_str: Any) -> list[int | None] | None:
        texts = [output_str] if isinstance(output_str, str) else list(output_str)
        moves = moves_in(t for t in texts if isinstance(t, str))
        return moves or None

    @classmethod
    def _verify_correction(cls, extracted: list[int | None], identity: dict[str, Any], **kwargs: Any) -> float:
        return 1.0 if replay(identity, extracted).result in ("win", "draw") else 0.0
