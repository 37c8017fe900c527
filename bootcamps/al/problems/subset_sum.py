"""al/subset_sum: numbers of a list that add up to a target exactly (any such subset scores)."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Problem


def greedy_fit(values: list[int], target: int, order: list[int]) -> list[int]:
    """Items in `order`, each taken when it still fits under the target."""
    out, left = [], target
    for i in order:
        if values[i] <= left:
            out.append(i + 1)
            left -= values[i]
    return sorted(out)


class SubsetSum(Problem):
    name = "subset_sum"
    title = "Subset sum"
    knobs = {"count": Knob(12, 4, 40, "numbers"), "max_value": Knob(999, 9, 99999, "numbers are 1..max_value")}
    groups = {"easy": {"count": 8, "max_value": 200}, "medium": {"count": 12, "max_value": 999},
              "hard": {"count": 18, "max_value": 9999}}
    answer_format = ("the item numbers (positions in the list, from 1) of the numbers you take, separated by "
                     "spaces, e.g. <answer>a b c</answer>.")
    baselines = {"largest_first": "the largest numbers first, each taken while it fits",
                 "in_order": "the numbers in the listed order, each taken while it fits"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        values = [rng.randint(1, p.max_value) for _ in range(p.count)]
        picked = rng.sample(range(p.count), rng.randint(max(3, p.count // 3), max(3, 2 * p.count // 3)))
        target = sum(values[i] for i in picked)
        inst = {"values": values, "target": target, "solution": sorted(i + 1 for i in picked)}
        if any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(f"item {i}: {v}" for i, v in enumerate(inst["values"], start=1))
        return f"{rows}\n\nChoose items whose numbers add up to exactly {inst['target']} (each item at most once)."

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        values = inst["values"]
        if len(set(answer)) < len(answer) or not all(1 <= i <= len(values) for i in answer):
            return f"item numbers must be distinct, from 1 to {len(values)}"
        total = sum(values[i - 1] for i in answer)
        return None if total == inst["target"] else f"the items add up to {total}, not {inst['target']}"

    def baseline_largest_first(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        values = inst["values"]
        return greedy_fit(values, inst["target"], sorted(range(len(values)), key=lambda i: (-values[i], i)))

    def baseline_in_order(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return greedy_fit(inst["values"], inst["target"], list(range(len(inst["values"]))))
