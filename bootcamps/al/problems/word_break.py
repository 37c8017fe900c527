"""al/word_break: split a string into the fewest dictionary words (any fewest split scores)."""
from __future__ import annotations

import random
import re
import string
from typing import Any

from ..core import Knob, Problem


def fewest_words(s: str, words: list[str]) -> list[str] | None:
    """The DP over prefixes; None when no split exists."""
    n, vocab = len(s), set(words)
    best, cut = [0] + [n + 1] * n, [0] * (n + 1)
    for end in range(1, n + 1):
        for start in range(max(0, end - max(map(len, words))), end):
            if s[start:end] in vocab and best[start] + 1 < best[end]:
                best[end], cut[end] = best[start] + 1, start
    if best[n] > n:
        return None
    pieces, end = [], n
    while end:
        pieces.append(s[cut[end]:end])
        end = cut[end]
    return pieces[::-1]


def greedy(s: str, words: list[str], longest: bool) -> list[str]:
    """The longest (or shortest) word the rest starts with, again and again, until none does."""
    pieces, i = [], 0
    while i < len(s):
        fits = sorted((w for w in words if s.startswith(w, i)), key=len, reverse=longest)
        if not fits:
            break
        pieces.append(fits[0])
        i += len(fits[0])
    return pieces


class WordBreak(Problem):
    name = "word_break"
    title = "Word break with the fewest words"
    knobs = {"words": Knob(10, 3, 40, "dictionary words"), "length": Knob(24, 6, 200, "letters of the string, about"),
             "alphabet": Knob(2, 2, 26, "distinct letters (a, b, ...)")}
    groups = {"easy": {"words": 7, "length": 16, "alphabet": 2}, "medium": {"words": 10, "length": 24,
                                                                             "alphabet": 2},
              "hard": {"words": 14, "length": 36, "alphabet": 3}}
    answer_format = "the words in order, separated by spaces, e.g. <answer>ab ba a</answer> (together they spell it)."
    baselines = {"longest_first": "the longest word the rest starts with, again and again",
                 "shortest_first": "the shortest word the rest starts with, again and again"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        letters = string.ascii_lowercase[:p.alphabet]
        words = sorted({"".join(rng.choice(letters) for _ in range(rng.randint(1, 5))) for _ in range(p.words)})
        s = ""
        while len(s) < p.length:
            s += rng.choice(words)
        best = fewest_words(s, words)
        rng.shuffle(words)
        inst = {"words": words, "string": s, "optimum": len(best or []), "solution": best}
        if best is None or any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        return (f"Dictionary words: {', '.join(inst['words'])}\nThe string: {inst['string']}\n\nSplit the string into "
                "dictionary words (each may be used any number of times), using as few words as possible.")

    def show(self, answer: list[str]) -> str:
        return " ".join(answer)

    def read(self, body: str) -> list[str] | None:
        pieces = [p for p in re.split(r"[\s,|]+", body.strip()) if p]
        return pieces if len(pieces) <= 400 and all(p.isascii() and p.isalpha() for p in pieces) else None

    def check(self, inst: dict[str, Any], answer: list[str]) -> str | None:
        if "".join(answer) != inst["string"]:
            return "the words do not spell the string"
        unknown = [w for w in answer if w not in inst["words"]]
        if unknown:
            return f"{unknown[0]!r} is not a dictionary word"
        return None if len(answer) == inst["optimum"] else f"{len(answer)} words; the fewest is {inst['optimum']}"

    def corrupt(self, inst: dict[str, Any], answer: list[str], rng: random.Random) -> list[str]:
        k = rng.randrange(len(answer))
        return answer[:k] + answer[k + 1:]

    def baseline_longest_first(self, inst: dict[str, Any], rng: random.Random) -> list[str]:
        return greedy(inst["string"], inst["words"], longest=True)

    def baseline_shortest_first(self, inst: dict[str, Any], rng: random.Random) -> list[str]:
        return greedy(inst["string"], inst["words"], longest=False)
