"""al/max_subarray: a contiguous stretch of a sequence with the largest sum (any largest stretch scores)."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Problem, numbers


def best_stretch(values: list[int]) -> tuple[int, list[int]]:
    """(largest sum, [first, last] 1-based) by Kadane's scan."""
    best, span, run, start = values[0], [1, 1], 0, 1
    for k, v in enumerate(values, 1):
        if run <= 0:
            run, start = v, k
        else:
            run += v
        if run > best:
            best, span = run, [start, k]
    return best, span


class MaxSubarray(Problem):
    name = "max_subarray"
    title = "Maximum-sum stretch"
    knobs = {"length": Knob(50, 5, 1000, "numbers"), "max_value": Knob(50, 2, 9999, "numbers are -max..max")}
    groups = {"easy": {"length": 30, "max_value": 30}, "medium": {"length": 50, "max_value": 50},
              "hard": {"length": 80, "max_value": 99}}
    answer_format = ("the positions of the first and the last number of your stretch (numbered from 1), e.g. "
                     "<answer>i j</answer>.")
    baselines = {"positive_run": "the longest run of positive numbers", "around_largest": "the largest number, "
                 "grown to either side while that adds a positive amount"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        values = [rng.randint(-p.max_value, p.max_value) for _ in range(p.length)]
        best, span = best_stretch(values)
        inst = {"values": values, "optimum": best, "solution": span}
        if span[1] - span[0] < 3 or any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        return (f"The numbers, in order: {', '.join(map(str, inst['values']))}\n\nChoose a stretch of consecutive "
                "numbers (at least one) whose sum is as large as possible.")

    def read(self, body: str) -> list[int] | None:
        found = numbers(body, limit=2)
        return found if found is not None and len(found) == 2 else None

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        first, last = answer
        n = len(inst["values"])
        if not 1 <= first <= last <= n:
            return f"positions must satisfy 1 <= first <= last <= {n}"
        total = sum(inst["values"][first - 1:last])
        return None if total == inst["optimum"] else f"sum {total}; the largest is {inst['optimum']}"

    def corrupt(self, inst: dict[str, Any], answer: list[int], rng: random.Random) -> list[int]:
        first, last = answer
        return [first, last - 1] if inst["values"][last - 1] > 0 else [first + 1, last]

    def baseline_positive_run(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        best, run = [1, 1], None
        for k, v in enumerate(inst["values"], 1):
            run = (run or k) if v > 0 else None
            if run and k - run > best[1] - best[0]:
                best = [run, k]
        return best

    def baseline_around_largest(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        values = inst["values"]
        k = values.index(max(values)) + 1
        first, last = k, k
        while True:
            left = values[first - 2] if first > 1 else -1
            right = values[last] if last < len(values) else -1
            if max(left, right) <= 0:
                return [first, last]
            if left >= right:
                first -= 1
            else:
                last += 1
