"""A two-player game between two models (`bc-eval --opponent-model`): TextArena's players 0 and 1 are the seats
"Player 0" and "Player 1", each told only TextArena's observations for that player."""
from __future__ import annotations

import functools
from typing import Any

from bc_common.bootcamp import SeatedGame, SeatOutcome

from .games import GAMES, class_name
from .play import MAX_MOVES, start


class TAMatch(SeatedGame):
    """One TextArena game, live for a match; `score` replays it from the seats' texts."""

    seats = ("Player 0", "Player 1")
    game_name = ""

    def __init__(self, identity: dict[str, Any]):
        super().__init__(identity)
        self.match = start(identity)

    def to_move(self) -> str | None:
        if self.match.done or self.match.moves >= MAX_MOVES:
            return None
        return self.seats[self.match.current]

    def view(self, seat: str, first: bool) -> str:
        text = self.match.pending(self.seats.index(seat))
        if first:
            game = GAMES[self.game_name]
            text = (f"You are {seat} in a game of TextArena's {game.env_id} against another player.\n\n{text}\n\n"
                    f"{game.answer_format} One move per reply.")
        return text

    def play(self, seat: str, text: str) -> None:
        self.match.step(text)

    def outcome(self) -> dict[str, SeatOutcome]:
        out = {}
        for i, seat in enumerate(self.seats):
            result = self.match.outcome(i)
            out[seat] = SeatOutcome(result.result, result.reason[:200])
        return out


@functools.cache
def seats_class(name: str) -> type | None:
    """ta/<name>'s SeatedGame, or None for a single-player game."""
    game = GAMES[name]
    if game.players != 2 or game.seat_policy is None:
        return None
    return type(f"{class_name(name)}Match", (TAMatch,),
                {"game_name": name, "policy": game.seat_policy, "baselines": dict(game.seat_baselines),
                 "max_moves": game.max_moves, "__module__": __name__})
