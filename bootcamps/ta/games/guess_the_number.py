"""ta/guess_the_number: TextArena's GuessTheNumber on ranges where guessing blindly cannot win.

TextArena's own variants (1-20 in 20 turns, 1-50 in 10) are won by counting up from 1; here the range is large
and the turns are exactly what halving needs, so only a search that uses every hint wins."""
from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from typing import Any

from bc_common.bootcamp import Baseline, Group, ReferencePolicy, assistant_texts

from ..game import Game
from ..play import replay


@dataclass
class Config:
    high: int = 100_000  # the secret is drawn from 1..high; the player has just enough turns to halve down to it

    def validate(self) -> None:
        if not 100 <= self.high <= 10**9:
            raise ValueError("high must be in [100, 10**9]")


def turns_for(high: int) -> int:
    """Guesses that halving needs in the worst case on 1..high."""
    return math.ceil(math.log2(high + 1))


def draw(rng: random.Random, config: Config, seed: int) -> dict[str, Any]:
    # TextArena checks the limit before it counts the turn, so the player gets max_turns + 1 guesses: one spare
    return {"min_number": 1, "max_number": config.high, "max_turns": turns_for(config.high)}


class _Guesser(ReferencePolicy):
    """Plays `guess(low, high, tried)` on the bounds TextArena's hints leave."""

    def guess(self, low: int, high: int, tried: set[int]) -> int:
        raise NotImplementedError

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        game = replay(self.identity, assistant_texts(messages)).match
        low, high = game.env.min_number, game.env.max_number
        for guess, hint in game.game_state["guess_history"]:
            if hint == "higher":
                low = max(low, guess + 1)
            else:
                high = min(high, guess - 1)
        tried = set(game.env.guessed_numbers)
        move = self.guess(low, high, tried)
        if wrong:  # a legal guess the hints already rule out: a wasted turn
            secret = game.game_state["game_number"]
            move = next(n for n in itertools.chain((low, high), itertools.count(game.env.min_number))
                        if n != secret and n not in tried)
        return {"role": "assistant", "content": f"[{move}]"}


class Halving(_Guesser):
    """The middle of what the hints leave: wins within ceil(log2(high + 1)) guesses."""

    def guess(self, low: int, high: int, tried: set[int]) -> int:
        return (low + high) // 2


class CountUp(_Guesser):
    """Baseline: 1, 2, 3, ... ignoring the hints (wins TextArena's own 1-20 variant)."""

    def guess(self, low: int, high: int, tried: set[int]) -> int:
        n = 1
        while n in tried:
            n += 1
        return n


class RandomInRange(_Guesser):
    """Baseline: a random untried number of the whole range, ignoring the hints."""

    def guess(self, low: int, high: int, tried: set[int]) -> int:
        top = self.identity["kwargs"]["max_number"]
        while True:
            n = self.rng.randint(1, top)
            if n not in tried:
                return n


GAME = Game(
    name="guess_the_number", env_id="GuessTheNumber-v0", players=1,
    about="TextArena GuessTheNumber: find a secret number from 'higher'/'lower' hints, with just enough turns "
          "to halve the range.",
    config=Config, draw=draw,
    # from 1..1000 up, one fixed line of halving guesses would win 1% of tasks; these ranges make it 0.02% or less
    groups=[Group("100k", {"high": 100_000}, ratio=0.34), Group("10m", {"high": 10_000_000}, ratio=0.33),
            Group("1b", {"high": 10**9}, ratio=0.33)],
    policy=Halving,
    baselines=[Baseline("count_up", CountUp, "1, 2, 3, ... ignoring the hints"),
               Baseline("random", RandomInRange, "a random untried number of the range, ignoring the hints")],
    answer_format="Reply with your guess in square brackets, e.g. [50000].",
    max_moves=32,
    conformance={"prompt_space": {"100k": 1, "10m": 1, "1b": 1}},  # one rules prompt; the secret is hidden
)
