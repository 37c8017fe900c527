"""The verifier of every os/<game>: the position replayed from the identity and the assistant's texts alone, the
scripted defender answering; 1.0 for a win within the task's moves, else 0."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import RewardCalculator

from .games import GAMES
from .play import replay

MAX_TEXTS = 64  # a task has a few moves; more texts than this are not a game
MAX_HISTORY = 400


class OSRewardCalculator(RewardCalculator):
    """1.0 when the model (the identity's player) wins the replayed game within `depth` moves, else 0."""

    grades = "all"
    identity_schema = {
        "type": "object", "required": ["game", "spec", "history", "player", "depth"],
        "properties": {"game": {"type": "string"}, "spec": {"type": "string"},
                       "history": {"type": "array", "items": {"type": "integer", "minimum": 0}},
                       "player": {"type": "integer", "minimum": 0, "maximum": 1},
                       "depth": {"type": "integer", "minimum": 1, "maximum": 4},
                       "winning": {"type": "array", "items": {"type": "string"}}},
    }

    @classmethod
    def check_identity(cls, identity: dict[str, Any]) -> None:
        game = GAMES.get(identity["game"])
        if game is None:
            raise ValueError(f"game: {identity['game']!r} is not an OpenSpiel game this adapter knows")
        if identity["spec"] not in game.specs:
            raise ValueError(f"spec: {identity['spec']!r} is not a board of os/{game.name} ({sorted(game.specs)})")
        if len(identity["history"]) > MAX_HISTORY:
            raise ValueError(f"history: more than {MAX_HISTORY} actions")

    @staticmethod
    def extract_output(output_str: Any) -> list[str] | None:
        texts = [output_str] if isinstance(output_str, str) else [t for t in output_str if isinstance(t, str)]
        return texts[:MAX_TEXTS] or None

    @classmethod
    def _verify_correction(cls, extracted: list[str], identity: dict[str, Any], **kwargs: Any) -> float:
        return 1.0 if replay(identity, extracted).won else 0.0
