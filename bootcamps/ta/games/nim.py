"""ta/nim: TextArena's Nim (take the last object to win) from drawn piles that the first player can win.

The model is Player 0 against a perfect scripted Player 1, so only play that leaves a nim-sum of zero after
every move wins; positions that a lazy rule (take one from, or all of, the largest pile) would win are redrawn.
In a match (`bc-eval --opponent-model`) both seats are models."""
from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass
from typing import Any

from bc_common.bootcamp import Baseline, Group, ReferencePolicy

from ..arena import Match
from ..game import Game
from ..play import opponent_rng

PILE = re.compile(r"pile (\d+): (\d+)")
DRAWS = 200  # piles are redrawn until no lazy rule wins them; this many tries at most


@dataclass
class Config:
    piles: int = 3  # number of piles
    largest: int = 31  # each pile holds 1..largest objects

    def validate(self) -> None:
        if not 2 <= self.piles <= 8:
            raise ValueError("piles must be in [2, 8]")
        if not 3 <= self.largest <= 1000:
            raise ValueError("largest must be in [3, 1000]")


def nim_sum(piles: list[int]) -> int:
    return functools.reduce(lambda a, b: a ^ b, piles, 0)


def winning_move(piles: list[int]) -> tuple[int, int] | None:
    """(pile, quantity) leaving a nim-sum of zero, the lowest pile first; None from a lost position."""
    total = nim_sum(piles)
    if total == 0:
        return None
    for i, pile in enumerate(piles):
        if pile ^ total < pile:
            return i, pile - (pile ^ total)
    return None


def random_move(piles: list[int], rng: random.Random) -> tuple[int, int]:
    i = rng.choice([i for i, p in enumerate(piles) if p > 0])
    return i, rng.randint(1, piles[i])


def losing_move(piles: list[int]) -> tuple[int, int]:
    """A legal move that is not winning (one object from the largest pile, or another if that one wins)."""
    best = winning_move(piles)
    order = sorted(range(len(piles)), key=lambda i: -piles[i])
    for i in order:
        for q in range(1, piles[i] + 1):
            if piles[i] > 0 and (i, q) != best:
                return i, q
    return order[0], 1  # one object left and taking it wins: no losing move exists


def perfect(piles: list[int], rng: random.Random) -> tuple[int, int]:
    """The scripted seat: the winning move if there is one, else a random legal move."""
    return winning_move(piles) or random_move(piles, rng)


def take_one_largest(piles: list[int], rng: random.Random) -> tuple[int, int]:
    i = max(range(len(piles)), key=lambda k: piles[k])
    return i, 1


def take_largest(piles: list[int], rng: random.Random) -> tuple[int, int]:
    i = max(range(len(piles)), key=lambda k: piles[k])
    return i, piles[i]


LAZY = (take_one_largest, take_largest)


def first_player_wins(piles: list[int], rule: Any, seed: int) -> bool:
    """Whether `rule` as Player 0 beats the scripted seat from `piles` (the scripted seat's stream of `seed`)."""
    piles, scripted = list(piles), 0
    while True:
        i, q = rule(piles, random.Random(0))
        piles[i] -= q
        if not any(piles):
            return True
        i, q = perfect(piles, opponent_rng({"seed": seed}, scripted))
        scripted += 1
        piles[i] -= q
        if not any(piles):
            return False


def draw(rng: random.Random, config: Config, seed: int) -> dict[str, Any]:
    for _ in range(DRAWS):
        piles = [rng.randint(1, config.largest) for _ in range(config.piles)]
        if nim_sum(piles) and not any(first_player_wins(piles, rule, seed) for rule in LAZY):
            return {"piles": piles}
    raise ValueError(f"no position in {DRAWS} draws that lazy rules lose (piles={config.piles}, "
                     f"largest={config.largest})")


def opponent(match: Match, rng: random.Random) -> str:
    i, q = perfect(list(match.game_state["piles"]), rng)
    return f"[{i} {q}]"


def piles_in(messages: list[dict[str, Any]], count: int) -> list[int]:
    """The piles the last user message shows (its last `pile i: n` lines)."""
    for message in reversed(messages):
        if message.get("role") == "user":
            found = PILE.findall(str(message.get("content") or ""))
            if len(found) >= count:
                piles = [0] * count
                for i, n in found[-count:]:
                    piles[int(i)] = int(n)
                return piles
    raise ValueError("no piles in the conversation")


class _NimPlayer(ReferencePolicy):
    def choose(self, piles: list[int]) -> tuple[int, int]:
        raise NotImplementedError

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        piles = piles_in(messages, len(self.identity["kwargs"]["piles"]))
        i, q = losing_move(piles) if wrong else self.choose(piles)
        return {"role": "assistant", "content": f"[{i} {q}]"}


class NimSum(_NimPlayer):
    """Leaves a nim-sum of zero (Bouton): wins every drawn position; from a lost one, a random move."""

    def choose(self, piles: list[int]) -> tuple[int, int]:
        return winning_move(piles) or random_move(piles, self.rng)


class RandomNim(_NimPlayer):
    """Baseline: a random legal move."""

    def choose(self, piles: list[int]) -> tuple[int, int]:
        return random_move(piles, self.rng)


class TakeOneLargest(_NimPlayer):
    """Baseline: one object from the largest pile."""

    def choose(self, piles: list[int]) -> tuple[int, int]:
        return take_one_largest(piles, self.rng)


class TakeLargest(_NimPlayer):
    """Baseline: the whole largest pile."""

    def choose(self, piles: list[int]) -> tuple[int, int]:
        return take_largest(piles, self.rng)


GAME = Game(
    name="nim", env_id="Nim-v0", players=2,
    about="TextArena Nim: take the last object to win, from drawn piles, against a perfect player "
          "(two models with bc-eval --opponent-model).",
    config=Config, draw=draw,
    groups=[Group("3x31", {"piles": 3, "largest": 31}, ratio=0.34),
            Group("4x63", {"piles": 4, "largest": 63}, ratio=0.33),
            Group("5x127", {"piles": 5, "largest": 127}, ratio=0.33)],
    policy=NimSum,
    baselines=[Baseline("random", RandomNim, "a random legal move"),
               Baseline("take_one_largest", TakeOneLargest, "one object from the largest pile"),
               Baseline("take_largest", TakeLargest, "the whole largest pile")],
    answer_format="Reply with your move as [pile quantity], e.g. [0 3].",
    opponent=opponent, seat_policy=NimSum,
    seat_baselines={"random": RandomNim, "take_one_largest": TakeOneLargest},
    max_moves=60,
)
