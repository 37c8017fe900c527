"""sy/eigenvalues: the distinct eigenvalues of an integer matrix, exact (integers, and quadratic surds or complex
pairs in the harder groups)."""
from __future__ import annotations

import random
from typing import Any

import sympy as sp

from .. import parse
from ..core import Knob, Task, text
from ..matrices import block, unimodular
from ..roots import same_set


class Eigenvalues(Task):
    name = "eigenvalues"
    title = "Eigenvalues of a matrix"
    knobs = {"size": Knob(3, 2, 4, "rows and columns"), "surd_block": Knob(0, 0, 1, "a 2x2 block with irrational "
                                                                                   "or complex eigenvalues"),
             "spread": Knob(9, 3, 20, "integer eigenvalues in -spread..spread")}
    # easy (integer eigenvalues only) draws them from a wider range
    groups = {"easy": {"size": 3, "surd_block": 0, "spread": 12}, "medium": {"size": 3, "surd_block": 1, "spread": 9},
              "hard": {"size": 4, "surd_block": 1, "spread": 9}}
    answer_format = "every distinct eigenvalue once, separated by commas, e.g. `2, -1, 1 + sqrt(3)`."
    baselines = {"diagonal": "the diagonal entries", "zero": "0", "trace_split": "the trace divided equally"}

    def read(self, body: str) -> list[sp.Expr]:
        return parse.items(body, ())

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        n = p.size
        d = sp.zeros(n, n)
        start = 0
        if p.surd_block:
            b, c = rng.randint(-3, 3), rng.randint(-6, 6)
            if b * b + 4 * c == 0 or sp.sqrt(b * b + 4 * c).is_Rational:  # x**2 - b*x - c: no rational roots
                return None
            d[0, 1], d[1, 0], d[1, 1] = 1, c, b
            start = 2
        for i in range(start, n):
            d[i, i] = rng.randint(-p.spread, p.spread)
            if i > start and rng.random() < 0.3:
                d[i - 1, i] = rng.randint(-2, 2)
        pmat = unimodular(rng, n, 3 * n)
        a = pmat * d * pmat.inv()
        if max(abs(v) for v in a) > 40:
            return None
        char = a.charpoly()
        eig = list(sp.roots(sp.Poly(char.as_expr(), char.gen)))
        inst = {"matrix": [[int(v) for v in a.row(i)] for i in range(n)], "eigenvalues": [text(e) for e in eig],
                "answer": ", ".join(text(e) for e in eig)}
        return None if self.cheap(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        return f"Find every eigenvalue of the matrix\n\n{block(sp.Matrix(inst['matrix']))}"

    def check(self, inst: dict[str, Any], answer: list[sp.Expr], body: str) -> str | None:
        return same_set(answer, inst["eigenvalues"])

    def corrupt(self, inst: dict[str, Any], rng: random.Random) -> str:
        eig = list(inst["eigenvalues"])
        i = rng.randrange(len(eig))
        eig[i] = f"{eig[i]} + {rng.choice([-1, 1])}"
        return ", ".join(eig)

    def baseline_diagonal(self, inst: dict[str, Any], rng: random.Random) -> str:
        return ", ".join(sorted({str(row[i]) for i, row in enumerate(inst["matrix"])}))

    def baseline_zero(self, inst: dict[str, Any], rng: random.Random) -> str:
        return "0"

    def baseline_trace_split(self, inst: dict[str, Any], rng: random.Random) -> str:
        return text(sp.Rational(sum(row[i] for i, row in enumerate(inst["matrix"])), len(inst["matrix"])))
