"""al/determinant: the exact determinant of a small integer matrix."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Problem, number


def determinant(rows: list[list[int]]) -> int:
    """Bareiss' fraction-free elimination: exact in integers."""
    m = [list(r) for r in rows]
    n, sign, prev = len(m), 1, 1
    for k in range(n - 1):
        if m[k][k] == 0:
            swap = next((i for i in range(k + 1, n) if m[i][k]), None)
            if swap is None:
                return 0
            m[k], m[swap], sign = m[swap], m[k], -sign
        for i in range(k + 1, n):
            for j in range(k + 1, n):
                m[i][j] = (m[i][j] * m[k][k] - m[i][k] * m[k][j]) // prev
        prev = m[k][k]
    return sign * m[n - 1][n - 1]


class Determinant(Problem):
    name = "determinant"
    title = "Determinant of an integer matrix"
    knobs = {"size": Knob(4, 2, 10, "rows and columns"), "max_entry": Knob(9, 1, 999, "entries are -max..max")}
    groups = {"easy": {"size": 3, "max_entry": 9}, "medium": {"size": 4, "max_entry": 9},
              "hard": {"size": 5, "max_entry": 12}}
    answer_format = "the determinant alone, e.g. <answer>n</answer>."
    baselines = {"diagonal": "the product of the main diagonal",
                 "two_diagonals": "the main diagonal's product minus the other diagonal's (the 2x2 rule)"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        rows = [[rng.randint(-p.max_entry, p.max_entry) for _ in range(p.size)] for _ in range(p.size)]
        det = determinant(rows)
        inst = {"matrix": rows, "solution": det}
        if abs(det) < 20 or any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(" ".join(f"{x:>4}" for x in row) for row in inst["matrix"])
        return f"The matrix:\n{rows}\n\nWhat is its determinant?"

    def show(self, answer: int) -> str:
        return str(answer)

    def read(self, body: str) -> int | None:
        return number(body)

    def check(self, inst: dict[str, Any], answer: int) -> str | None:
        return None if answer == inst["solution"] else f"{answer} is not the determinant"

    def corrupt(self, inst: dict[str, Any], answer: int, rng: random.Random) -> int:
        return -answer

    def baseline_diagonal(self, inst: dict[str, Any], rng: random.Random) -> int:
        out = 1
        for k, row in enumerate(inst["matrix"]):
            out *= row[k]
        return out

    def baseline_two_diagonals(self, inst: dict[str, Any], rng: random.Random) -> int:
        n, other = len(inst["matrix"]), 1
        for k, row in enumerate(inst["matrix"]):
            other *= row[n - 1 - k]
        return self.baseline_diagonal(inst, rng) - other
