"""al/scs: a shortest common supersequence of two strings (any shortest one scores)."""
from __future__ import annotations

import random
import string
from typing import Any

from ..core import Knob, Problem, is_subsequence
from .lcs import longest_common


def shortest_common(a: str, b: str) -> str:
    """Both strings woven along one longest common subsequence: its letters once, the others in between."""
    out, i, j = [], 0, 0
    for ch in longest_common(a, b):
        while a[i] != ch:
            out.append(a[i])
            i += 1
        while b[j] != ch:
            out.append(b[j])
            j += 1
        out.append(ch)
        i, j = i + 1, j + 1
    return "".join(out) + a[i:] + b[j:]


def greedy_merge(a: str, b: str) -> str:
    """Take a shared next letter once; otherwise the next letter of the first string, then of the second."""
    out, i, j = [], 0, 0
    while i < len(a) and j < len(b):
        if a[i] == b[j]:
            out.append(a[i])
            i, j = i + 1, j + 1
        else:
            out.append(a[i])
            i += 1
    return "".join(out) + a[i:] + b[j:]


class Scs(Problem):
    name = "scs"
    title = "Shortest common supersequence"
    knobs = {"length": Knob(12, 4, 60, "letters in each string"),
             "alphabet": Knob(4, 2, 26, "distinct letters (a, b, c, ...)")}
    groups = {"easy": {"length": 8, "alphabet": 3}, "medium": {"length": 12, "alphabet": 4},
              "hard": {"length": 18, "alphabet": 5}}
    answer_format = "the supersequence as one string of letters, e.g. <answer>xyz</answer>."
    baselines = {"concatenate": "the first string followed by the second",
                 "greedy_merge": "shared next letters once, else the first string's next letter"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        letters = string.ascii_lowercase[:p.alphabet]
        a, b = ("".join(rng.choice(letters) for _ in range(p.length)) for _ in range(2))
        best = shortest_common(a, b)
        inst = {"first": a, "second": b, "optimum": len(best), "solution": best}
        if any(self.accepts(inst, self.baseline(x, inst, rng)) for x in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        return (f"First string: {inst['first']}\nSecond string: {inst['second']}\n\nFind a shortest string that "
                "contains both as subsequences (each one's letters appear in it in order, not necessarily "
                "next to each other).")

    def show(self, answer: str) -> str:
        return answer

    def read(self, body: str) -> str | None:
        text = body.strip()
        return text if text.isascii() and text.isalpha() and len(text) <= 400 else None

    def check(self, inst: dict[str, Any], answer: str) -> str | None:
        for which in ("first", "second"):
            if not is_subsequence(inst[which], answer):
                return f"the {which} string is not a subsequence of it"
        return None if len(answer) == inst["optimum"] else f"{len(answer)} letters; the shortest has {inst['optimum']}"

    def corrupt(self, inst: dict[str, Any], answer: str, rng: random.Random) -> str:
        k = rng.randrange(len(answer))
        return answer[:k] + answer[k + 1:]

    def baseline_concatenate(self, inst: dict[str, Any], rng: random.Random) -> str:
        return inst["first"] + inst["second"]

    def baseline_greedy_merge(self, inst: dict[str, Any], rng: random.Random) -> str:
        return greedy_merge(inst["first"], inst["second"])
