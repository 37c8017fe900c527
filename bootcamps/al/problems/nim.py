"""al/nim: a winning move in a position of Nim (any winning move scores)."""
from __future__ import annotations

import functools
import operator
import random
from typing import Any

from ..core import Knob, Problem, numbers


def winning_moves(piles: list[int]) -> list[list[int]]:
    """Every [pile number, stones taken] after which the piles' XOR (nim-sum) is 0."""
    total = functools.reduce(operator.xor, piles, 0)
    return [[k, size - (size ^ total)] for k, size in enumerate(piles, 1) if size ^ total < size]


class Nim(Problem):
    name = "nim"
    title = "Winning move in Nim"
    knobs = {"piles": Knob(5, 2, 20, "piles"), "max_stones": Knob(1000, 10, 10**9, "stones a pile, at most")}
    groups = {"easy": {"piles": 4, "max_stones": 200}, "medium": {"piles": 5, "max_stones": 1000},
              "hard": {"piles": 7, "max_stones": 100000}}
    answer_format = "the pile's number and how many stones you take from it, e.g. <answer>p s</answer>."
    baselines = {"take_one": "one stone from the largest pile", "empty_largest": "the whole largest pile"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        piles = [rng.randint(1, p.max_stones) for _ in range(p.piles)]
        moves = winning_moves(piles)
        inst = {"piles": piles, "solution": moves[0] if moves else None}
        if not moves or any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = ", ".join(f"pile {k}: {size}" for k, size in enumerate(inst["piles"], 1))
        return (f"A game of Nim with these piles of stones: {rows}.\n\nTwo players take turns; a turn takes any "
                "number of stones (at least one) from one pile; whoever takes the last stone wins. It is your turn: "
                "give a move after which you can win whatever your opponent does.")

    def read(self, body: str) -> list[int] | None:
        found = numbers(body, limit=2)
        return found if found is not None and len(found) == 2 else None

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        k, taken = answer
        piles = inst["piles"]
        if not 1 <= k <= len(piles) or not 1 <= taken <= piles[k - 1]:
            return f"pile {k} cannot give {taken} stones"
        after = piles[:k - 1] + [piles[k - 1] - taken] + piles[k:]
        return None if functools.reduce(operator.xor, after, 0) == 0 else "after that move the opponent can win"

    def corrupt(self, inst: dict[str, Any], answer: list[int], rng: random.Random) -> list[int]:
        k, taken = answer
        return [k, taken - 1] if taken > 1 else [k, taken + 1]

    def baseline_take_one(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        piles = inst["piles"]
        return [piles.index(max(piles)) + 1, 1]

    def baseline_empty_largest(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        piles = inst["piles"]
        return [piles.index(max(piles)) + 1, max(piles)]
