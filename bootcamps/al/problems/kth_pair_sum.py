"""al/kth_pair_sum: the k-th smallest of the sums a + b over every pair of two lists (a number)."""
from __future__ import annotations

import bisect
import random
from typing import Any

from ..core import Knob, Problem, number


def kth_sum(first: list[int], second: list[int], k: int) -> int:
    """The k-th smallest (1-based, repeats counted) of the len(first) * len(second) sums, by binary search on the
    value: the least s with at least k sums <= s."""
    b = sorted(second)
    low, high = min(first) + b[0], max(first) + b[-1]
    while low < high:
        mid = (low + high) // 2
        if sum(bisect.bisect_right(b, mid - a) for a in first) >= k:
            high = mid
        else:
            low = mid + 1
    return low


class KthPairSum(Problem):
    name = "kth_pair_sum"
    title = "K-th smallest pair sum"
    knobs = {"size": Knob(8, 3, 60, "numbers in each list"),
             "max_value": Knob(999, 20, 99999, "numbers are drawn from 1..max_value")}
    groups = {"easy": {"size": 5, "max_value": 300}, "medium": {"size": 8, "max_value": 999},
              "hard": {"size": 12, "max_value": 9999}}
    answer_format = "the k-th smallest sum, e.g. <answer>1234</answer>."
    baselines = {"row_major": "the k-th sum with both lists sorted and the sums read row by row",
                 "smallest_plus": "the smallest of the first list plus the k-th smallest of the second"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        first = [rng.randint(1, p.max_value) for _ in range(p.size)]
        second = [rng.randint(1, p.max_value) for _ in range(p.size)]
        k = rng.randint(2, p.size * p.size - 1)
        inst = {"first": first, "second": second, "k": k, "solution": kth_sum(first, second, k)}
        if any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        m, k = len(inst["first"]), inst["k"]
        return (f"List A: {' '.join(map(str, inst['first']))}\nList B: {' '.join(map(str, inst['second']))}\n\n"
                f"Form all {m * m} sums a + b with a from A and b from B (every pair of positions, equal sums counted "
                f"separately) and sort them from smallest to largest. Which number is at position {k}?")

    def show(self, answer: int) -> str:
        return str(answer)

    def read(self, body: str) -> int | None:
        return number(body)

    def check(self, inst: dict[str, Any], answer: int) -> str | None:
        return None if answer == inst["solution"] else f"{answer} is not the sum at position {inst['k']}"

    def corrupt(self, inst: dict[str, Any], answer: int, rng: random.Random) -> int:
        return answer + 1

    def baseline_row_major(self, inst: dict[str, Any], rng: random.Random) -> int:
        a, b, m = sorted(inst["first"]), sorted(inst["second"]), len(inst["first"])
        return a[(inst["k"] - 1) // m] + b[(inst["k"] - 1) % m]

    def baseline_smallest_plus(self, inst: dict[str, Any], rng: random.Random) -> int:
        b = sorted(inst["second"])
        return min(inst["first"]) + b[min(inst["k"], len(b)) - 1]
