"""A task's game replayed from its identity and the model's texts: what the model was told before each move,
and how the game ended. The interaction, the verifier and the policies all replay, so they cannot disagree."""
from __future__ import annotations

import copy
import functools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from .arena import Match, Outcome

MODEL = 0  # the model is Player 0 in a single-model task; a two-player game's other seat is scripted
MAX_MOVES = 200  # a game that has not ended after this many moves (both players) is stopped unfinished

Opponent = Callable[[Match, random.Random], str]


def opponent_rng(identity: dict[str, Any], move: int) -> random.Random:
    """The scripted seat's stream for its `move`-th decision: keyed by the task's seed, the same on every run."""
    return random.Random(f"ta-opponent/{identity['seed']}/{move}")


@dataclass
class Replay:
    """The game after the model's texts: `views[k]` is what the model read before its move k (the last one is
    what it reads now, while the game goes on)."""

    match: Match
    views: list[str] = field(default_factory=list)
    used: int = 0  # texts that were moves (texts after the end of the game are not)
    budget: int | None = None  # the task's moves for the model (identity "budget"); None: TextArena's own limits

    @property
    def done(self) -> bool:
        return self.match.done

    @property
    def out_of_moves(self) -> bool:
        """The model spent its budget and TextArena's game goes on: the game is over, unfinished (a loss)."""
        return not self.match.done and self.budget is not None and self.used >= self.budget

    @property
    def over(self) -> bool:
        return self.done or self.out_of_moves

    def outcome(self) -> Outcome:
        if self.out_of_moves:
            return Outcome("loss", -1.0, f"The budget of {self.budget} moves is spent and the game is unfinished.")
        return self.match.outcome(MODEL)


def start(identity: dict[str, Any]) -> Match:
    """The identity's game before any move (a copy: every replay starts from the same untouched game)."""
    kwargs = orjson.dumps(identity.get("kwargs") or {}, option=orjson.OPT_SORT_KEYS).decode()
    return copy.deepcopy(_fresh(identity["env_id"], kwargs, int(identity["seed"]), int(identity["players"])))


@functools.lru_cache(maxsize=512)
def _fresh(env_id: str, kwargs: str, seed: int, players: int) -> Match:
    # made once per game: some resets are slow (Sudoku builds a unique puzzle: 0.1-0.4 s), and every turn replays
    return Match(env_id, orjson.loads(kwargs), seed, players)


def replay(identity: dict[str, Any], texts: Sequence[str], opponent: Opponent | None = None) -> Replay:
    """Play the model's `texts` in order (the scripted `opponent` answering for the other seat)."""
    match = start(identity)
    out = Replay(match, budget=identity.get("budget"))
    texts = list(texts)
    scripted = 0
    while not match.done and match.moves < MAX_MOVES:
        if match.current != MODEL:
            if opponent is None:
                raise ValueError(f"{identity['env_id']}: player {match.current} to move and no scripted opponent")
            match.step(opponent(match, opponent_rng(identity, scripted)))
            scripted += 1
            continue
        out.views.append(match.pending(MODEL))
        if out.used == len(texts) or out.out_of_moves:
            return out
        match.step(texts[out.used])
        out.used += 1
    out.views.append(match.pending(MODEL))
    return out
