"""sy/determinant: the determinant of a matrix whose entries are integers and linear polynomials in x (a
polynomial answer)."""
from __future__ import annotations

import random
from typing import Any

import sympy as sp

from ..core import Knob, Task, X, polynomial, stored, text
from ..matrices import block


class Determinant(Task):
    name = "determinant"
    title = "Determinant of a matrix with a parameter"
    knobs = {"size": Knob(3, 2, 5, "rows and columns"), "symbolic": Knob(3, 1, 10, "entries that depend on x"),
             "spread": Knob(4, 2, 9, "integer parts in -spread..spread")}
    groups = {"easy": {"size": 2, "symbolic": 2, "spread": 3}, "medium": {"size": 3, "symbolic": 3, "spread": 4},
              "hard": {"size": 4, "symbolic": 4, "spread": 5}}
    answer_format = "det as a polynomial in x, e.g. `x**3 - 2*x + 7`."
    baselines = {"diagonal_product": "the product of the diagonal entries", "zero": "0",
                 "no_x": "the determinant with x = 0 (a constant)"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        n = p.size
        m = sp.Matrix(n, n, lambda i, j: rng.randint(-p.spread, p.spread))
        cells = rng.sample([(i, j) for i in range(n) for j in range(n)], min(p.symbolic, n * n))
        for i, j in cells:
            m[i, j] = m[i, j] + rng.choice([-2, -1, 1, 2]) * X
        det = sp.expand(m.det(method="berkowitz"))
        if not det.has(X):
            return None
        inst = {"matrix": [[text(v) for v in m.row(i)] for i in range(n)], "answer": text(det),
                "degree": n}
        return None if self.cheap(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        m = sp.Matrix([[stored(v) for v in row] for row in inst["matrix"]])
        return f"Compute the determinant of the matrix\n\n{block(m)}\n\nas a polynomial in x."

    def check(self, inst: dict[str, Any], answer: sp.Expr, body: str) -> str | None:
        got = polynomial(answer, X, inst["degree"])
        return None if got == sp.Poly(stored(inst["answer"]), X) else "another polynomial"

    def corrupt(self, inst: dict[str, Any], rng: random.Random) -> str:
        return f"-({inst['answer']})" if rng.random() < 0.5 else f"{inst['answer']} + {rng.choice([-1, 1])}*x"

    def baseline_diagonal_product(self, inst: dict[str, Any], rng: random.Random) -> str:
        return "*".join(f"({row[i]})" for i, row in enumerate(inst["matrix"]))

    def baseline_zero(self, inst: dict[str, Any], rng: random.Random) -> str:
        return "0"

    def baseline_no_x(self, inst: dict[str, Any], rng: random.Random) -> str:
        return text(stored(inst["answer"]).subs(X, 0))
