"""ta/three_card_monte: TextArena's ThreeCardMonte (a ball under one of k cups, a shown sequence of swaps, one
guess) with many cups and long shuffles.

TextArena's own variant (3 cups, 10 swaps) pays a constant guess a third of the time; here the cups are 70 to
140 and the swaps 200 to 300 (a swap moves the ball one time in k/2, so it moves four to six times); shuffles that
leave the ball under its start cup or under a cup of the last swap are redrawn (those guesses earn nothing), and a
constant or random guess earns about 1/k. One reply decides the game: tracking every swap wins.
The reference writes its guess as `[ k ]` (TextArena reads it as `[k]`), since `[k]` is a cup label in the prompt."""
from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from bc_common.bootcamp import Baseline, Group, ReferencePolicy

from ..game import Game

START = re.compile(r"Ball starts: (.*)")
SWAP = re.compile(r"swapped cups (\d+) and (\d+)")


@dataclass
class Config:
    cups: int = 70
    swaps: int = 200  # the ball is in about one swap in cups/2: enough swaps that it leaves its start cup

    def validate(self) -> None:
        if not 3 <= self.cups <= 200:
            raise ValueError("cups must be in [3, 200]")
        if not 1 <= self.swaps <= 1000:
            raise ValueError("swaps must be in [1, 1000]")


def shuffle(cups: int, steps: int, seed: int) -> tuple[int, list[tuple[int, int]]]:
    """(the start cup, the swaps) of TextArena's shuffle for `seed` (its reset draws from Random(seed) alone)."""
    rng = random.Random(seed)
    start = rng.randrange(cups)
    return start, [tuple(rng.sample(range(cups), 2)) for _ in range(steps)]


def follow(start: int, swaps: list[tuple[int, int]]) -> int:
    ball = start
    for i, j in swaps:
        ball = j if ball == i else i if ball == j else ball
    return ball


def draw(rng: random.Random, config: Config, seed: int) -> dict[str, Any] | None:
    start, swaps = shuffle(config.cups, config.swaps, seed)
    if follow(start, swaps) in (start, *swaps[-1]):  # the start cup or the last swap's cup would win: redraw
        return None
    return {"num_cups": config.cups, "steps": config.swaps}


def final_cup(identity: dict[str, Any]) -> int:
    """Where TextArena's shuffle of this task leaves the ball."""
    kwargs = identity["kwargs"]
    return follow(*shuffle(kwargs["num_cups"], kwargs["steps"], identity["seed"]))


def shown(messages: list[dict[str, Any]]) -> tuple[int, list[tuple[int, int]]]:
    """(the starting cup, the swaps) as the first user message shows them."""
    text = str(next(m for m in messages if m.get("role") == "user").get("content") or "")
    start = START.search(text)
    if start is None:
        raise ValueError("no 'Ball starts:' line in the prompt")
    cups = start.group(1).split()
    return cups.index("[X]"), [(int(a), int(b)) for a, b in SWAP.findall(text)]


class _Guesser(ReferencePolicy):
    def guess(self, start: int, swaps: list[tuple[int, int]]) -> int:
        raise NotImplementedError

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        start, swaps = shown(messages)
        cup = self.guess(start, swaps)
        if wrong:  # another cup
            cup = (cup + 1) % self.identity["kwargs"]["num_cups"]
        return {"role": "assistant", "content": f"[ {cup} ]"}


class Track(_Guesser):
    """Follows the ball through every swap."""

    def guess(self, start: int, swaps: list[tuple[int, int]]) -> int:
        return follow(start, swaps)


class StartCup(_Guesser):
    """Baseline: the cup the ball started under."""

    def guess(self, start: int, swaps: list[tuple[int, int]]) -> int:
        return start


class LastSwap(_Guesser):
    """Baseline: a cup of the last swap (the one the ball went to when it moved)."""

    def guess(self, start: int, swaps: list[tuple[int, int]]) -> int:
        return swaps[-1][1] if swaps else start


GAME = Game(
    name="three_card_monte", env_id="ThreeCardMonte-v0", players=1,
    about="TextArena ThreeCardMonte: follow a ball under 70 to 140 cups through 200 to 300 shown swaps, one guess.",
    config=Config, draw=draw,
    # at 10 cups a random guess won 16% of 50 games (limit 1/10 + 5%): with 70 cups or more chance stays far off
    groups=[Group("70_cups", {"cups": 70, "swaps": 200}, ratio=0.34),
            Group("100_cups", {"cups": 100, "swaps": 250}, ratio=0.33),
            Group("140_cups", {"cups": 140, "swaps": 300}, ratio=0.33)],
    policy=Track,
    baselines=[Baseline("start_cup", StartCup, "the cup the ball started under"),
               Baseline("last_swap", LastSwap, "the cup the last swap moved to")],
    answer_format="Reply with the cup's number in square brackets, like [k] for cup k.",
    max_moves=3,
    # the answer is one cup of 70 to 140: no answer repeats often, but the answers are few
    conformance={"small_answer_space": "one cup of 70 to 140"},
)
