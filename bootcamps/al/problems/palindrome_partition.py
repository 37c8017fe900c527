"""al/palindrome_partition: split a string into the fewest palindromes (any fewest split scores)."""
from __future__ import annotations

import random
import re
import string
from typing import Any

from ..core import Knob, Problem


def fewest_palindromes(s: str) -> list[str]:
    """The DP over prefixes: best[i] = the fewest palindromes covering s[:i]."""
    n = len(s)
    best, cut = [0] + [n + 1] * n, [0] * (n + 1)
    for end in range(1, n + 1):
        for start in range(end):
            piece = s[start:end]
            if piece == piece[::-1] and best[start] + 1 < best[end]:
                best[end], cut[end] = best[start] + 1, start
    pieces, end = [], n
    while end:
        pieces.append(s[cut[end]:end])
        end = cut[end]
    return pieces[::-1]


def greedy_longest(s: str) -> list[str]:
    """The longest palindrome the rest starts with, again and again."""
    pieces, i = [], 0
    while i < len(s):
        end = max(e for e in range(i + 1, len(s) + 1) if s[i:e] == s[i:e][::-1])
        pieces.append(s[i:end])
        i = end
    return pieces


class PalindromePartition(Problem):
    name = "palindrome_partition"
    title = "Fewest palindromes"
    knobs = {"length": Knob(18, 4, 120, "letters"), "alphabet": Knob(3, 2, 26, "distinct letters (a, b, ...)")}
    groups = {"easy": {"length": 14, "alphabet": 3}, "medium": {"length": 18, "alphabet": 3},
              "hard": {"length": 28, "alphabet": 3}}
    answer_format = ("the pieces in order, separated by spaces, e.g. <answer>aba c cdc</answer> (together they "
                     "spell the string).")
    baselines = {"greedy_longest": "the longest palindrome the rest starts with, again and again",
                 "letters": "every letter alone"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        letters = string.ascii_lowercase[:p.alphabet]
        s = "".join(rng.choice(letters) for _ in range(p.length))
        best = fewest_palindromes(s)
        inst = {"string": s, "optimum": len(best), "solution": best}
        if any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        return (f"The string: {inst['string']}\n\nCut it into pieces that are each a palindrome (read the same "
                "backwards), using as few pieces as possible.")

    def show(self, answer: list[str]) -> str:
        return " ".join(answer)

    def read(self, body: str) -> list[str] | None:
        pieces = [p for p in re.split(r"[\s,|]+", body.strip()) if p]
        return pieces if len(pieces) <= 400 and all(p.isascii() and p.isalpha() for p in pieces) else None

    def check(self, inst: dict[str, Any], answer: list[str]) -> str | None:
        if "".join(answer) != inst["string"]:
            return "the pieces do not spell the string"
        odd = [p for p in answer if p != p[::-1]]
        if odd:
            return f"{odd[0]!r} is not a palindrome"
        return None if len(answer) == inst["optimum"] else f"{len(answer)} pieces; the fewest is {inst['optimum']}"

    def corrupt(self, inst: dict[str, Any], answer: list[str], rng: random.Random) -> list[str]:
        return greedy_longest(inst["string"])

    def baseline_greedy_longest(self, inst: dict[str, Any], rng: random.Random) -> list[str]:
        return greedy_longest(inst["string"])

    def baseline_letters(self, inst: dict[str, Any], rng: random.Random) -> list[str]:
        return list(inst["string"])
