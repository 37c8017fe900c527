"""al/edit_distance: an alignment of two strings with the fewest edits (any optimal alignment scores)."""
from __future__ import annotations

import random
import string
from typing import Any

from ..core import Knob, Problem

GAP = "-"


def best_alignment(a: str, b: str) -> tuple[str, str]:
    """An optimal alignment (rows with gaps) by the Levenshtein table, read back from its start."""
    n, m = len(a), len(b)
    d = [[0] * (m + 1) for _ in range(n + 1)]  # d[i][j]: distance of a[i:] and b[j:]
    for i in range(n, -1, -1):
        for j in range(m, -1, -1):
            if i == n or j == m:
                d[i][j] = (n - i) + (m - j)
            else:
                d[i][j] = min(d[i + 1][j + 1] + (a[i] != b[j]), d[i + 1][j] + 1, d[i][j + 1] + 1)
    top, bottom, i, j = [], [], 0, 0
    while i < n or j < m:
        if i < n and j < m and d[i][j] == d[i + 1][j + 1] + (a[i] != b[j]):
            top.append(a[i]), bottom.append(b[j])
            i, j = i + 1, j + 1
        elif i < n and d[i][j] == d[i + 1][j] + 1:
            top.append(a[i]), bottom.append(GAP)
            i += 1
        else:
            top.append(GAP), bottom.append(b[j])
            j += 1
    return "".join(top), "".join(bottom)


def cost(top: str, bottom: str) -> int:
    return sum(x != y for x, y in zip(top, bottom, strict=False))


def no_gaps(a: str, b: str) -> tuple[str, str]:
    """Position against position, the shorter string padded with gaps at its end."""
    width = max(len(a), len(b))
    return a.ljust(width, GAP), b.ljust(width, GAP)


class EditDistance(Problem):
    name = "edit_distance"
    title = "Edit distance with an optimal alignment"
    knobs = {"length": Knob(12, 5, 40, "letters of the first string"),
             "edits": Knob(4, 1, 20, "random edits that make the second string from the first"),
             "alphabet": Knob(4, 2, 26, "distinct letters (a, b, c, ...)")}
    groups = {"easy": {"length": 7, "edits": 3, "alphabet": 3}, "medium": {"length": 12, "edits": 5, "alphabet": 4},
              "hard": {"length": 18, "edits": 8, "alphabet": 5}}
    answer_format = ("two lines of equal length: the first string and the second string, each with `-` where "
                     "the other has a letter it lacks (an insertion or deletion), e.g.\n<answer>\nab-cd\nxbycd\n"
                     "</answer>\nEvery column where the two lines differ is one edit; the alignment must use the "
                     "fewest edits possible.")
    baselines = {"no_gaps": "letter against letter, the shorter string padded at its end",
                 "delete_insert": "every letter of the first deleted, every letter of the second inserted"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        letters = string.ascii_lowercase[:p.alphabet]
        a = "".join(rng.choice(letters) for _ in range(p.length))
        b = list(a)
        for _ in range(p.edits):
            kind, k = rng.randrange(3), rng.randrange(len(b) + 1)
            if kind == 0 and k < len(b):
                b[k] = rng.choice(letters)
            elif kind == 1 and k < len(b) and len(b) > 2:
                del b[k]
            else:
                b.insert(k, rng.choice(letters))
        b = "".join(b)
        top, bottom = best_alignment(a, b)
        if a == b or cost(*no_gaps(a, b)) <= cost(top, bottom):
            return None
        return {"first": a, "second": b, "optimum": cost(top, bottom), "solution": [top, bottom]}

    def statement(self, inst: dict[str, Any]) -> str:
        return (f"First string:  {inst['first']}\nSecond string: {inst['second']}\n\n"
                "Turn the first string into the second with the fewest edits (insert a letter, delete a letter, "
                "or replace a letter), and show the edits as an alignment of the two strings.")

    def show(self, answer: list[str]) -> str:
        return f"\n{answer[0]}\n{answer[1]}\n"

    def read(self, body: str) -> list[str] | None:
        lines = [line.strip() for line in body.strip().splitlines() if line.strip()]
        if len(lines) != 2 or not all(line.isascii() and line.replace(GAP, "").isalpha() for line in lines):
            return None
        return lines

    def check(self, inst: dict[str, Any], answer: list[str]) -> str | None:
        top, bottom = answer
        if len(top) != len(bottom):
            return f"the lines have {len(top)} and {len(bottom)} columns"
        if any(x == GAP and y == GAP for x, y in zip(top, bottom, strict=False)):
            return "a column with two gaps"
        if top.replace(GAP, "") != inst["first"] or bottom.replace(GAP, "") != inst["second"]:
            return "the lines without their gaps are not the two strings"
        if cost(top, bottom) != inst["optimum"]:
            return f"{cost(top, bottom)} edits; the fewest is {inst['optimum']}"
        return None

    def corrupt(self, inst: dict[str, Any], answer: list[str], rng: random.Random) -> list[str]:
        return list(no_gaps(inst["first"], inst["second"]))

    def baseline_no_gaps(self, inst: dict[str, Any], rng: random.Random) -> list[str]:
        return list(no_gaps(inst["first"], inst["second"]))

    def baseline_delete_insert(self, inst: dict[str, Any], rng: random.Random) -> list[str]:
        a, b = inst["first"], inst["second"]
        return [a + GAP * len(b), GAP * len(a) + b]
