"""al/set_cover: the fewest of the listed sets whose union is the whole universe (exact search over bitmasks; any
smallest cover scores)."""
from __future__ import annotations

import itertools
import random
from typing import Any

from ..core import Knob, Problem


def masks(sets: list[list[int]]) -> list[int]:
    return [sum(1 << (x - 1) for x in s) for s in sets]


def smallest_cover(universe: int, sets: list[list[int]]) -> list[int]:
    """The set numbers (from 1) of a smallest cover, the first in dictionary order among the smallest."""
    full, bits = (1 << universe) - 1, masks(sets)
    for size in range(1, len(sets) + 1):
        for chosen in itertools.combinations(range(len(sets)), size):
            union = 0
            for i in chosen:
                union |= bits[i]
            if union == full:
                return [i + 1 for i in chosen]
    return []


def greedy_cover(universe: int, sets: list[list[int]]) -> list[int]:
    """Always the set with the most elements not covered yet (the first such set on ties)."""
    left, bits, out = (1 << universe) - 1, masks(sets), []
    while left:
        best = max(range(len(sets)), key=lambda i: (bin(bits[i] & left).count("1"), -i))
        out.append(best + 1)
        left &= ~bits[best]
    return out


class SetCover(Problem):
    name = "set_cover"
    title = "Minimum set cover"
    knobs = {"universe": Knob(16, 6, 30, "elements 1..universe"), "sets": Knob(12, 4, 22, "listed sets"),
             "max_size": Knob(6, 2, 20, "elements in a set: 2..max_size")}
    groups = {"easy": {"universe": 14, "sets": 11, "max_size": 5}, "medium": {"universe": 17, "sets": 13, "max_size": 6},
              "hard": {"universe": 22, "sets": 16, "max_size": 7}}
    answer_format = "the numbers of the sets you choose, separated by spaces, e.g. <answer>a b c</answer>."
    baselines = {"greedy": "always the set covering the most elements not covered yet",
                 "largest_first": "sets from the largest down, each taken while it adds an element"}

    def validate(self, p: Any) -> None:
        if p.max_size > p.universe:
            raise ValueError("max_size must be at most universe")

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        sets = [sorted(rng.sample(range(1, p.universe + 1), rng.randint(2, p.max_size))) for _ in range(p.sets)]
        if len({x for s in sets for x in s}) < p.universe or len({tuple(s) for s in sets}) < p.sets:
            return None
        best = smallest_cover(p.universe, sets)
        inst = {"universe": p.universe, "sets": sets, "optimum": len(best), "solution": best}
        if len(best) < 3 or any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(f"set {i}: {{{', '.join(map(str, s))}}}" for i, s in enumerate(inst["sets"], 1))
        return (f"The universe is the numbers 1..{inst['universe']}. The sets:\n{rows}\n\nChoose as few sets as "
                "possible so that every number of the universe is in at least one chosen set.")

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        m = len(inst["sets"])
        if len(set(answer)) < len(answer) or any(not 1 <= i <= m for i in answer):
            return "a set number out of range, or one listed twice"
        covered = {x for i in answer for x in inst["sets"][i - 1]}
        if len(covered) < inst["universe"]:
            return f"{min(set(range(1, inst['universe'] + 1)) - covered)} is not covered"
        if len(answer) != inst["optimum"]:
            return f"{len(answer)} sets; the fewest is {inst['optimum']}"
        return None

    def baseline_greedy(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return greedy_cover(inst["universe"], inst["sets"])

    def baseline_largest_first(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        covered: set[int] = set()
        out = []
        for i in sorted(range(len(inst["sets"])), key=lambda i: (-len(inst["sets"][i]), i)):
            if set(inst["sets"][i]) - covered and len(covered) < inst["universe"]:
                out.append(i + 1)
                covered |= set(inst["sets"][i])
        return out
