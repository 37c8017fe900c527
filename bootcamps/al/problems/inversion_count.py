"""al/inversion_count: the number of pairs out of order in a sequence of distinct numbers (a number; the count is
drawn evenly from 0..n(n-1)/2 and the sequence built to have it, so no constant answer pays)."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Problem, number


def inversions(seq: list[int]) -> int:
    """Pairs i < j with seq[i] > seq[j], by merge sort (O(n log n))."""
    def sort(xs: list[int]) -> tuple[list[int], int]:
        if len(xs) < 2:
            return xs, 0
        left, a = sort(xs[:len(xs) // 2])
        right, b = sort(xs[len(xs) // 2:])
        merged, count, i, j = [], a + b, 0, 0
        while i < len(left) and j < len(right):
            if right[j] < left[i]:
                merged.append(right[j])
                count += len(left) - i
                j += 1
            else:
                merged.append(left[i])
                i += 1
        return merged + left[i:] + right[j:], count
    return sort(list(seq))[1]


class InversionCount(Problem):
    name = "inversion_count"
    title = "Inversion count"
    knobs = {"length": Knob(60, 8, 200, "numbers in the sequence"),
             "max_value": Knob(199, 10, 9999, "distinct numbers are drawn from 1..max_value")}
    groups = {"easy": {"length": 45, "max_value": 99}, "medium": {"length": 60, "max_value": 199},
              "hard": {"length": 90, "max_value": 999}}
    answer_format = "the number of inversions, e.g. <answer>123</answer>."
    baselines = {"descents": "the adjacent pairs out of order", "half_pairs": "half of all pairs, n(n-1)/4"}

    def validate(self, p: Any) -> None:
        if p.max_value < p.length:
            raise ValueError("max_value must be at least length (the numbers are distinct)")

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        n = p.length
        target = rng.randint(0, n * (n - 1) // 2)  # any count equally likely: no constant answer pays
        code = [0] * n  # a Lehmer code summing to the target: code[i] <= n - 1 - i smaller numbers come after i
        open_ = [i for i in range(n - 1)]
        for _ in range(target):
            i = rng.choice(open_)
            code[i] += 1
            if code[i] == n - 1 - i:
                open_.remove(i)
        left = sorted(rng.sample(range(1, p.max_value + 1), n))
        seq = [left.pop(c) for c in code]
        inst = {"sequence": seq, "solution": inversions(seq)}
        if any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        seq = inst["sequence"]
        return (f"Sequence of {len(seq)} numbers:\n{' '.join(map(str, seq))}\n\nCount its inversions: the pairs of "
                "positions i < j whose numbers are out of order (the number at i strictly larger than the one at j).")

    def show(self, answer: int) -> str:
        return str(answer)

    def read(self, body: str) -> int | None:
        return number(body)

    def check(self, inst: dict[str, Any], answer: int) -> str | None:
        return None if answer == inst["solution"] else f"{answer} inversions; the sequence has another count"

    def corrupt(self, inst: dict[str, Any], answer: int, rng: random.Random) -> int:
        return answer + rng.choice((-1, 1))

    def baseline_descents(self, inst: dict[str, Any], rng: random.Random) -> int:
        seq = inst["sequence"]
        return sum(a > b for a, b in zip(seq, seq[1:], strict=False))

    def baseline_half_pairs(self, inst: dict[str, Any], rng: random.Random) -> int:
        n = len(inst["sequence"])
        return n * (n - 1) // 4
