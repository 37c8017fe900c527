"""Grades the whole game: one guess per assistant reply, replayed against the identity's secret."""
from __future__ import annotations

from typing import Any, ClassVar

from bc_common.bootcamp import RewardCalculator

from .codes import guesses_in, replay, score_for


class MastermindRewardCalculator(RewardCalculator):
    """1.0 when a reply's guess is the secret within `par` replies, less for each reply after that, 0 when not
    solved within the budget. Only the assistant's replies count (one guess each: its last guess tag), never the
    code-maker's feedback, so guesses written all in one reply or a claimed solution earn nothing."""

    grades = "all"
    identity_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "required": ["pegs", "colours", "secret", "budget", "par"],
        "properties": {
            "pegs": {"type": "integer", "minimum": 1, "maximum": 8},
            "colours": {"type": "string", "pattern": "^[A-Z]{2,10}$"},
            "secret": {"type": "string", "pattern": "^[A-Z]{1,8}$"},
            "budget": {"type": "integer", "minimum": 1, "maximum": 30},
            "par": {"type": "integer", "minimum": 1, "maximum": 30},
        },
    }

    @staticmethod
    def extract_output(output_str: Any) -> list[str | None] | None:
        replies = [output_str] if isinstance(output_str, str) else list(output_str)
        guesses = guesses_in(replies)
        return guesses if any(g is not None for g in guesses) else None

    @classmethod
    def _verify_correction(cls, extracted: list[str | None], identity: dict[str, Any], **kwargs: Any) -> float:
        return score_for(identity, replay(identity, extracted).solved_at)
