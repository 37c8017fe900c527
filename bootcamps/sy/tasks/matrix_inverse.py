"""sy/matrix_inverse: the inverse of an integer matrix, exact (rational entries); checked as A * B = I."""
from __future__ import annotations

import random
from typing import Any

import sympy as sp

from .. import parse
from ..core import Knob, Task
from ..matrices import block, rows


class MatrixInverse(Task):
    name = "matrix_inverse"
    title = "Inverse of a matrix"
    knobs = {"size": Knob(3, 2, 4, "rows and columns"), "spread": Knob(4, 2, 9, "entries in -spread..spread")}
    groups = {"easy": {"size": 2, "spread": 9}, "medium": {"size": 3, "spread": 4}, "hard": {"size": 4, "spread": 3}}
    answer_format = "the inverse as a list of rows, e.g. `[[1/2, -1], [0, 3/4]]`."
    baselines = {"transpose": "the transpose", "adjugate": "the adjugate (the division by the determinant "
                                                           "forgotten)", "reciprocals": "each entry's reciprocal "
                                                                                        "(0 kept)"}

    def read(self, body: str) -> str:
        return body  # the size is the instance's: `check` reads the matrix

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        n = p.size
        a = sp.Matrix(n, n, lambda i, j: rng.randint(-p.spread, p.spread))
        det = a.det()
        if det == 0 or abs(det) == 1 or abs(det) > 60:
            return None
        inv = a.inv()
        inst = {"matrix": [[int(v) for v in a.row(i)] for i in range(n)], "answer": rows(inv)}
        return None if self.cheap(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        return f"Find the inverse of the matrix\n\n{block(sp.Matrix(inst['matrix']))}"

    def check(self, inst: dict[str, Any], answer: Any, body: str) -> str | None:
        a = sp.Matrix(inst["matrix"])
        b = parse.matrix(body, a.rows)
        if not all(v.is_Rational for row in b for v in row):
            return "every entry must be a rational number"
        return None if a * sp.Matrix(b) == sp.eye(a.rows) else "A times it is not the identity"

    def corrupt(self, inst: dict[str, Any], rng: random.Random) -> str:
        inv = sp.Matrix(parse.matrix(inst["answer"], len(inst["matrix"])))
        i, j = rng.randrange(inv.rows), rng.randrange(inv.cols)
        inv[i, j] = -inv[i, j] if inv[i, j] else 1
        return rows(inv)

    def baseline_transpose(self, inst: dict[str, Any], rng: random.Random) -> str:
        return rows(sp.Matrix(inst["matrix"]).T)

    def baseline_adjugate(self, inst: dict[str, Any], rng: random.Random) -> str:
        return rows(sp.Matrix(inst["matrix"]).adjugate())

    def baseline_reciprocals(self, inst: dict[str, Any], rng: random.Random) -> str:
        return rows(sp.Matrix(inst["matrix"]).applyfunc(lambda v: 1 / v if v else 0))
