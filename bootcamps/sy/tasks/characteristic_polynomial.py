"""sy/characteristic_polynomial: det(x*I - A) of an integer matrix (det(A - x*I), its sign convention, is accepted
too): an exact polynomial answer."""
from __future__ import annotations

import random
from typing import Any

import sympy as sp

from ..core import Knob, Task, X, polynomial, stored, text
from ..matrices import block


class CharacteristicPolynomial(Task):
    name = "characteristic_polynomial"
    title = "Characteristic polynomial of a matrix"
    knobs = {"size": Knob(3, 2, 5, "rows and columns"), "spread": Knob(5, 2, 9, "entries in -spread..spread")}
    groups = {"easy": {"size": 2, "spread": 9}, "medium": {"size": 3, "spread": 5}, "hard": {"size": 4, "spread": 4}}
    answer_format = "det(x*I - A) as a polynomial in x, e.g. `x**3 - 2*x**2 + 5*x - 7`."
    baselines = {"diagonal_product": "the product of (x - a_ii) over the diagonal", "trace_only": "x**n - trace*x**(n-1)",
                 "no_constant": "the right polynomial with the constant term (the determinant's) left out"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        a = sp.Matrix(p.size, p.size, lambda i, j: rng.randint(-p.spread, p.spread))
        if sum(1 for v in a if v == 0) > p.size or a.is_upper or a.is_lower or a.det() == 0:
            return None
        char = a.charpoly(X).as_expr()
        inst = {"matrix": [[int(v) for v in a.row(i)] for i in range(p.size)], "answer": text(char)}
        return None if self.cheap(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        return (f"Find the characteristic polynomial det(x*I - A) of the matrix\n\n"
                f"{block(sp.Matrix(inst['matrix']))}")

    def check(self, inst: dict[str, Any], answer: sp.Expr, body: str) -> str | None:
        got = polynomial(answer, X, len(inst["matrix"]))
        want = sp.Poly(stored(inst["answer"]), X)
        return None if got in (want, -want) else "another polynomial"

    def corrupt(self, inst: dict[str, Any], rng: random.Random) -> str:
        return f"{inst['answer']} + {rng.choice([-1, 1])}*x**{rng.randrange(len(inst['matrix']))}"

    def baseline_diagonal_product(self, inst: dict[str, Any], rng: random.Random) -> str:
        return text(sp.expand(sp.Mul(*[X - row[i] for i, row in enumerate(inst["matrix"])])))

    def baseline_trace_only(self, inst: dict[str, Any], rng: random.Random) -> str:
        n = len(inst["matrix"])
        return text(X**n - sum(row[i] for i, row in enumerate(inst["matrix"])) * X**(n - 1))

    def baseline_no_constant(self, inst: dict[str, Any], rng: random.Random) -> str:
        char = stored(inst["answer"])
        return text(char - char.subs(X, 0))
