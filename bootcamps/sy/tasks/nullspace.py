"""sy/nullspace: a basis of the null space of an integer matrix. Any basis is accepted: as many vectors as the
nullity, each with A*v = 0 exactly, and together of full rank."""
from __future__ import annotations

import random
from typing import Any

import sympy as sp

from .. import parse
from ..core import Knob, Task, nonzero
from ..matrices import block

MAX_VECTORS = 8


class Nullspace(Task):
    name = "nullspace"
    title = "Basis of the null space of a matrix"
    variables = ()
    knobs = {"columns": Knob(4, 3, 6, "columns (unknowns)"), "rank": Knob(2, 1, 4, "rank (rows: rank + 1)")}
    groups = {"easy": {"columns": 3, "rank": 2}, "medium": {"columns": 4, "rank": 2}, "hard": {"columns": 5, "rank": 3}}
    answer_format = "the basis vectors as a list of lists, e.g. `[[1, -2, 1, 0], [0, 1, -1, 1]]`."
    baselines = {"zero": "the zero vector (as often as the nullity)", "standard": "the last standard basis vectors",
                 "first_rows": "the matrix's first rows, as vectors"}

    def validate(self, p: Any) -> None:
        if p.rank >= p.columns:
            raise ValueError("rank must be less than columns (a non-trivial null space)")

    def read(self, body: str) -> str:
        return body  # the vectors' length is the instance's: `check` reads them

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        left = sp.Matrix(p.rank + 1, p.rank, lambda i, j: rng.randint(-3, 3))
        right = sp.Matrix(p.rank, p.columns, lambda i, j: rng.randint(-3, 3))
        a = left * right
        if a.rank() != p.rank or any(all(v == 0 for v in a.col(j)) for j in range(p.columns)):
            return None
        if max(abs(v) for v in a) > 20 or sum(1 for v in a if v == 0) > p.columns:
            return None
        basis = []
        for v in a.nullspace():
            scale = sp.ilcm(*[e.q for e in v])
            basis.append([int(e * scale) for e in v])
        rows = ", ".join("[" + ", ".join(str(e) for e in v) + "]" for v in basis)
        inst = {"matrix": [[int(v) for v in a.row(i)] for i in range(a.rows)], "nullity": len(basis),
                "answer": f"[{rows}]"}
        return None if self.cheap(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        return (f"Find a basis of the null space {{v : A*v = 0}} of the matrix\n\n{block(sp.Matrix(inst['matrix']))}")

    def check(self, inst: dict[str, Any], answer: Any, body: str) -> str | None:
        a = sp.Matrix(inst["matrix"])
        vectors = parse.vectors(body, a.cols, MAX_VECTORS)
        if not all(e.is_Rational for v in vectors for e in v):
            return "every entry must be a rational number"
        if len(vectors) != inst["nullity"]:
            return f"{len(vectors)} vectors given; the null space has dimension {inst['nullity']}"
        m = sp.Matrix(vectors).T
        if any(e != 0 for e in a * m):
            return "a vector is not in the null space"
        return None if m.rank() == inst["nullity"] else "the vectors are not independent"

    def corrupt(self, inst: dict[str, Any], rng: random.Random) -> str:
        basis = [list(map(int, v.strip("[] ").split(","))) for v in inst["answer"][1:-1].split("], [")]
        i, j = rng.randrange(len(basis)), rng.randrange(len(basis[0]))
        basis[i][j] += nonzero(rng, -1, 1)
        return str(basis)

    def baseline_zero(self, inst: dict[str, Any], rng: random.Random) -> str:
        n = len(inst["matrix"][0])
        return str([[0] * n for _ in range(inst["nullity"])])

    def baseline_standard(self, inst: dict[str, Any], rng: random.Random) -> str:
        n, k = len(inst["matrix"][0]), inst["nullity"]
        return str([[1 if c == n - k + i else 0 for c in range(n)] for i in range(k)])

    def baseline_first_rows(self, inst: dict[str, Any], rng: random.Random) -> str:
        return str([row for row in inst["matrix"][: inst["nullity"]]])
