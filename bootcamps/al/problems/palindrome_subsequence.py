"""al/palindrome_subsequence: a longest palindromic subsequence of a string (any longest one scores)."""
from __future__ import annotations

import random
import re
from typing import Any

from ..core import Knob, Problem, is_subsequence


def longest_palindrome(s: str) -> str:
    """One longest palindromic subsequence, by the interval DP (O(n^2))."""
    n = len(s)
    best = [[0] * n for _ in range(n)]
    for i in range(n - 1, -1, -1):
        best[i][i] = 1
        for j in range(i + 1, n):
            best[i][j] = best[i + 1][j - 1] + 2 if s[i] == s[j] else max(best[i + 1][j], best[i][j - 1])
    left, middle, i, j = [], "", 0, n - 1
    while i <= j:
        if i == j:
            middle = s[i]
            break
        if s[i] == s[j]:
            left.append(s[i])
            i, j = i + 1, j - 1
        elif best[i + 1][j] >= best[i][j - 1]:
            i += 1
        else:
            j -= 1
    return "".join(left) + middle + "".join(reversed(left))


def longest_substring(s: str) -> str:
    """The longest palindromic stretch of adjacent letters (the first on ties)."""
    best = s[:1]
    for i in range(len(s)):
        for j in range(i + len(best) + 1, len(s) + 1):
            if s[i:j] == s[i:j][::-1]:
                best = s[i:j]
    return best


class PalindromeSubsequence(Problem):
    name = "palindrome_subsequence"
    title = "Longest palindromic subsequence"
    knobs = {"length": Knob(16, 6, 80, "letters in the string"), "alphabet": Knob(4, 2, 26, "distinct letters")}
    groups = {"easy": {"length": 12, "alphabet": 4}, "medium": {"length": 18, "alphabet": 5},
              "hard": {"length": 28, "alphabet": 6}}
    answer_format = "the palindrome you keep, its letters in order, e.g. <answer>abcba</answer>."
    baselines = {"longest_substring": "the longest palindrome of adjacent letters",
                 "one_letter": "the most frequent letter, every copy of it"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        s = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz"[:p.alphabet]) for _ in range(p.length))
        best = longest_palindrome(s)
        inst = {"string": s, "optimum": len(best), "solution": best}
        if any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        return (f"String: {inst['string']}\n\nDelete as few letters as possible (any of them, the others keep their "
                "order) so that what remains reads the same forwards and backwards. Give the longest such "
                "palindrome.")

    def show(self, answer: str) -> str:
        return answer

    def read(self, body: str) -> str | None:
        text = re.sub(r"\s+", "", body)
        return text if len(text) <= 400 and text.isascii() and text.isalpha() else None

    def check(self, inst: dict[str, Any], answer: str) -> str | None:
        if answer != answer[::-1]:
            return "not a palindrome"
        if not is_subsequence(answer, inst["string"]):
            return "not a subsequence of the string"
        if len(answer) != inst["optimum"]:
            return f"a palindrome of length {len(answer)}; the longest has {inst['optimum']}"
        return None

    def corrupt(self, inst: dict[str, Any], answer: str, rng: random.Random) -> str:
        return answer[1:-1] if len(answer) > 2 else answer + answer[:1]

    def baseline_longest_substring(self, inst: dict[str, Any], rng: random.Random) -> str:
        return longest_substring(inst["string"])

    def baseline_one_letter(self, inst: dict[str, Any], rng: random.Random) -> str:
        s = inst["string"]
        letter = max(sorted(set(s)), key=s.count)
        return letter * s.count(letter)
