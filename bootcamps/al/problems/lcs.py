"""al/lcs: a longest common subsequence of two strings (any one of them scores)."""
from __future__ import annotations

import random
import string
from typing import Any

from ..core import Knob, Problem, is_subsequence


def longest_common(a: str, b: str) -> str:
    """One longest common subsequence by the classic O(|a||b|) table, read back from its end."""
    n, m = len(a), len(b)
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            table[i][j] = table[i + 1][j + 1] + 1 if a[i] == b[j] else max(table[i + 1][j], table[i][j + 1])
    out, i, j = [], 0, 0
    while i < n and j < m:
        if a[i] == b[j]:
            out.append(a[i])
            i, j = i + 1, j + 1
        elif table[i + 1][j] >= table[i][j + 1]:
            i += 1
        else:
            j += 1
    return "".join(out)


def greedy_common(a: str, b: str) -> str:
    """Each letter of `a` in turn, kept when it occurs in `b` after the last letter matched."""
    out, j = [], 0
    for ch in a:
        k = b.find(ch, j)
        if k >= 0:
            out.append(ch)
            j = k + 1
    return "".join(out)


class Lcs(Problem):
    name = "lcs"
    title = "Longest common subsequence"
    knobs = {"length": Knob(14, 6, 60, "letters in each string"),
             "alphabet": Knob(4, 2, 26, "distinct letters (a, b, c, ...)")}
    groups = {"easy": {"length": 9, "alphabet": 3}, "medium": {"length": 14, "alphabet": 4},
              "hard": {"length": 22, "alphabet": 5}}
    answer_format = "the subsequence as one string of letters, e.g. <answer>xyz</answer>."
    baselines = {"greedy_first": "the first string's letters matched greedily into the second",
                 "greedy_second": "the second string's letters matched greedily into the first"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        letters = string.ascii_lowercase[:p.alphabet]
        a, b = ("".join(rng.choice(letters) for _ in range(p.length)) for _ in range(2))
        best = longest_common(a, b)
        if len(best) <= max(len(greedy_common(a, b)), len(greedy_common(b, a)), 1):
            return None
        return {"first": a, "second": b, "optimum": len(best), "solution": best}

    def statement(self, inst: dict[str, Any]) -> str:
        return (f"First string:  {inst['first']}\nSecond string: {inst['second']}\n\n"
                "Find a longest common subsequence: a string whose letters appear, in the same order (not "
                "necessarily adjacent), in both strings.")

    def show(self, answer: str) -> str:
        return answer

    def read(self, body: str) -> str | None:
        text = body.strip()
        return text if text.isascii() and (text.isalpha() or not text) and len(text) <= 200 else None

    def check(self, inst: dict[str, Any], answer: str) -> str | None:
        for label in ("first", "second"):
            if not is_subsequence(answer, inst[label]):
                return f"not a subsequence of the {label} string"
        if len(answer) != inst["optimum"]:
            return f"common subsequence of length {len(answer)}; the longest has {inst['optimum']}"
        return None

    def corrupt(self, inst: dict[str, Any], answer: str, rng: random.Random) -> str:
        k = rng.randrange(len(answer))
        return answer[:k] + answer[k + 1:]

    def baseline_greedy_first(self, inst: dict[str, Any], rng: random.Random) -> str:
        return greedy_common(inst["first"], inst["second"])

    def baseline_greedy_second(self, inst: dict[str, Any], rng: random.Random) -> str:
        return greedy_common(inst["second"], inst["first"])
