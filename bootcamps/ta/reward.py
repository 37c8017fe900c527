"""The verifier of every ta/<game>: the game replayed from the identity and the assistant's texts alone."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import RewardCalculator

from .games import GAMES
from .play import replay

MAX_TEXTS = 400  # a trajectory has far fewer moves; more texts than this are not a game


class TARewardCalculator(RewardCalculator):
    """1.0 when the model (Player 0) wins the replayed game, else 0: a loss, a draw, an unfinished game.
    TextArena's partial credit (GuessTheNumber pays for a near guess) is not paid: a blind guess earns it."""

    grades = "all"
    identity_schema = {
        "type": "object", "required": ["game", "env_id", "players", "kwargs", "seed"],
        "properties": {"game": {"type": "string"}, "env_id": {"type": "string"}, "players": {"type": "integer"},
                       "kwargs": {"type": "object"}, "seed": {"type": "integer"},
                       "budget": {"type": "integer", "minimum": 1}},
    }

    @classmethod
    def check_identity(cls, identity: dict[str, Any]) -> None:
        game = GAMES.get(identity["game"])
        if game is None:
            raise ValueError(f"game: {identity['game']!r} is not an adapted TextArena game")
        if identity["env_id"] != game.env_id or identity["players"] != game.players:
            raise ValueError(f"env_id/players: ta/{game.name} is {game.env_id} for {game.players} player(s)")
        if not 0 <= identity["seed"] < 2**31:
            raise ValueError("seed: must be in [0, 2**31)")

    @staticmethod
    def extract_output(output_str: Any) -> list[str] | None:
        texts = [output_str] if isinstance(output_str, str) else [t for t in output_str if isinstance(t, str)]
        return texts[:MAX_TEXTS] or None

    @classmethod
    def _verify_correction(cls, extracted: list[str], identity: dict[str, Any], **kwargs: Any) -> float:
        game = GAMES[identity["game"]]
        played = replay(identity, extracted, game.opponent)
        return 1.0 if played.over and played.outcome().result == "win" else 0.0
