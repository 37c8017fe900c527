"""Seats: a game for two or more models, each seated with a conversation of its own (author API).

A multi-player bootcamp declares `seats=TheGame` in its manifest; `bc-eval --opponent-model M2` then plays each
task as a match (`bc_common.match`): seat i's model sees only what `view(seat)` tells it, answers with one
assistant message a turn, and `play(seat, text)` applies it. The game is a pure function of the seats' texts, so
`SeatedGame.score(identity, texts)` re-grades a recorded match from its assistant texts alone.

    class TicTacToeMatch(SeatedGame):
        seats = ("X", "O")                       # seat 0 moves first
        policy = SeatReference                   # builtin:reference in a seat; identity has "seat"
        baselines = {"random": SeatRandom}       # builtin:random / builtin:baseline/NAME in a seat
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

RESULTS = ("win", "draw", "loss")
SCORES = {"win": 1.0, "draw": 0.5, "loss": 0.0}


@dataclass(frozen=True)
class SeatOutcome:
    """How a finished match went for one seat: `result` win / draw / loss, `score` 1 / 0.5 / 0, and why
    (`reason`: "line", "full board", "illegal move", "no move", ...); `payoff`, where the game has a measure of its
    own (poker's chips), is recorded beside the result."""

    result: str
    reason: str = ""
    payoff: float | None = None  # the game's own measure where it has one (poker: chips won), recorded beside

    def __post_init__(self) -> None:
        if self.result not in RESULTS:
            raise ValueError(f"result must be one of {', '.join(RESULTS)}, got {self.result!r}")

    @property
    def score(self) -> float:
        return SCORES[self.result]


class SeatedGame:
    """One match of a game between seated players, made anew from the task's identity.

    Subclasses set `seats` (names, seat 0 moves first), `policy` (the reference policy of a seat: a
    `ReferencePolicy` made with the identity plus `"seat"`), `baselines` ({name: policy class}, the same way),
    and implement `to_move`, `view`, `play` and `outcome`."""

    seats: ClassVar[tuple[str, ...]] = ()
    policy: ClassVar[type | None] = None
    baselines: ClassVar[dict[str, type]] = {}
    max_moves: ClassVar[int] = 100  # a seat that has made this many moves ends the match (a game bug, not a rule)

    def __init__(self, identity: dict[str, Any]):
        self.identity = identity

    def to_move(self) -> str | None:
        """The seat whose turn it is; None once the match is over."""
        raise NotImplementedError

    def view(self, seat: str, first: bool) -> str:
        """What `seat` is told before its move: the rules and the position on its `first` turn, else what
        happened since its last move and the position. Only what this seat may know."""
        raise NotImplementedError

    def play(self, seat: str, text: str) -> None:
        """Apply `seat`'s reply; a reply without a legal move ends the match (that seat loses)."""
        raise NotImplementedError

    def outcome(self) -> dict[str, SeatOutcome]:
        """Every seat's outcome of the finished match."""
        raise NotImplementedError

    def seat_identity(self, seat: str) -> dict[str, Any]:
        """The identity a built-in policy of `seat` is made with: the task's, plus the seat."""
        return {**self.identity, "seat": seat}

    @classmethod
    def score(cls, identity: dict[str, Any], texts: dict[str, list[str]]) -> dict[str, SeatOutcome]:
        """Replay a recorded match from each seat's assistant texts (in order) and grade every seat; a match that
        did not finish grades every seat a loss ("unfinished")."""
        game = cls(identity)
        left = {seat: list(texts.get(seat, [])) for seat in cls.seats}
        while (seat := game.to_move()) is not None:
            if not left[seat]:
                return {s: SeatOutcome("loss", "unfinished") for s in cls.seats}
            game.play(seat, left[seat].pop(0))
        return game.outcome()
