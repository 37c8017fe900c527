"""al/lis: a longest strictly increasing subsequence of a sequence (any one of them scores)."""
from __future__ import annotations

import bisect
import random
from typing import Any

from ..core import Knob, Problem, is_subsequence


def longest_increasing(seq: list[int]) -> list[int]:
    """One longest strictly increasing subsequence (patience sorting with back links), O(n log n)."""
    tails: list[int] = []  # tails[k]: index of the smallest tail of an increasing run of length k + 1
    back = [-1] * len(seq)
    for i, x in enumerate(seq):
        k = bisect.bisect_left([seq[j] for j in tails], x)
        back[i] = tails[k - 1] if k else -1
        tails[k:k + 1] = [i]
    out, i = [], tails[-1] if tails else -1
    while i >= 0:
        out.append(seq[i])
        i = back[i]
    return out[::-1]


def greedy_run(seq: list[int]) -> list[int]:
    """The first element, then every element larger than the last one taken."""
    out: list[int] = []
    for x in seq:
        if not out or x > out[-1]:
            out.append(x)
    return out


def longest_block(seq: list[int]) -> list[int]:
    """The longest contiguous strictly increasing block."""
    best, run = seq[:1], seq[:1]
    for prev, x in zip(seq, seq[1:], strict=False):
        run = run + [x] if x > prev else [x]
        if len(run) > len(best):
            best = run
    return best


class Lis(Problem):
    name = "lis"
    title = "Longest increasing subsequence"
    knobs = {"length": Knob(16, 6, 80, "numbers in the sequence"),
             "max_value": Knob(99, 20, 9999, "numbers are drawn from 1..max_value")}
    groups = {"easy": {"length": 10, "max_value": 50}, "medium": {"length": 18, "max_value": 99},
              "hard": {"length": 30, "max_value": 999}}
    answer_format = ("the values of your subsequence in order, separated by spaces, e.g. "
                     "<answer>a b c</answer>.")
    baselines = {"greedy": "the first number, then every number larger than the last one taken",
                 "block": "the longest contiguous increasing block"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        seq = [rng.randint(1, p.max_value) for _ in range(p.length)]
        best = longest_increasing(seq)
        if len(best) <= max(len(greedy_run(seq)), len(longest_block(seq)), 2):
            return None
        return {"sequence": seq, "optimum": len(best), "solution": best}

    def statement(self, inst: dict[str, Any]) -> str:
        return (f"Sequence of {len(inst['sequence'])} numbers:\n{' '.join(map(str, inst['sequence']))}\n\n"
                "Find a longest strictly increasing subsequence: numbers of the sequence kept in their order (not "
                "necessarily adjacent), each larger than the one before.")

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        if any(b <= a for a, b in zip(answer, answer[1:], strict=False)):
            return "not strictly increasing"
        if not is_subsequence(answer, inst["sequence"]):
            return "not a subsequence of the sequence"
        if len(answer) != inst["optimum"]:
            return f"increasing subsequence of length {len(answer)}; the longest has {inst['optimum']}"
        return None

    def baseline_greedy(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return greedy_run(inst["sequence"])

    def baseline_block(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return longest_block(inst["sequence"])
