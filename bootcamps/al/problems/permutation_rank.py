"""al/permutation_rank: the position of a permutation in the dictionary order of all permutations of 1..n."""
from __future__ import annotations

import math
import random
from typing import Any

from ..core import Knob, Problem, number


def rank(perm: list[int]) -> int:
    """1-based: 1 + the sum over positions of (smaller values still unused) * (places after it)!."""
    left, out = sorted(perm), 1
    for k, v in enumerate(perm):
        i = left.index(v)
        out += i * math.factorial(len(perm) - k - 1)
        left.pop(i)
    return out


class PermutationRank(Problem):
    name = "permutation_rank"
    title = "Rank of a permutation"
    knobs = {"size": Knob(11, 3, 20, "n")}
    groups = {"easy": {"size": 9}, "medium": {"size": 11}, "hard": {"size": 14}}  # 9! rows: few repeats in 1,000
    answer_format = "the position alone (the first permutation 1 2 ... n is number 1), e.g. <answer>n</answer>."
    baselines = {"leading": "(first value - 1) * (n - 1)! + 1, from the first value only",
                 "no_removal": "each value's count of smaller values overall (not only unused ones)"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        perm = list(range(1, p.size + 1))
        rng.shuffle(perm)
        inst = {"permutation": perm, "solution": rank(perm)}
        if any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        n = len(inst["permutation"])
        return (f"List all orderings of the numbers 1..{n} in dictionary order (1 2 ... {n} first, then "
                f"1 2 ... {n} {n - 1}, and so on, {n} ... 2 1 last), numbering them from 1. What is the number of "
                f"this ordering: {' '.join(map(str, inst['permutation']))}?")

    def show(self, answer: int) -> str:
        return str(answer)

    def read(self, body: str) -> int | None:
        return number(body)

    def check(self, inst: dict[str, Any], answer: int) -> str | None:
        return None if answer == inst["solution"] else f"{answer} is not its position"

    def corrupt(self, inst: dict[str, Any], answer: int, rng: random.Random) -> int:
        return answer - 1 if answer > 1 else answer + 1

    def baseline_leading(self, inst: dict[str, Any], rng: random.Random) -> int:
        perm = inst["permutation"]
        return (perm[0] - 1) * math.factorial(len(perm) - 1) + 1

    def baseline_no_removal(self, inst: dict[str, Any], rng: random.Random) -> int:
        perm = inst["permutation"]
        return 1 + sum((v - 1) * math.factorial(len(perm) - k - 1) for k, v in enumerate(perm))
