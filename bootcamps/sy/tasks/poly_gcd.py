"""sy/poly_gcd: the greatest common divisor of two integer polynomials (any non-zero constant multiple)."""
from __future__ import annotations

import random
from typing import Any

import sympy as sp

from .. import parse
from ..core import Knob, Task, X, nonzero, polynomial, text


def _random_poly(rng: random.Random, degree: int) -> sp.Expr:
    return nonzero(rng, 1, 3) * X**degree + sp.Add(*[rng.randint(-6, 6) * X**k for k in range(degree)])


class PolyGcd(Task):
    name = "poly_gcd"
    title = "Greatest common divisor of two polynomials"
    knobs = {"gcd_degree": Knob(2, 1, 4, "degree of the gcd"), "cofactor_degree": Knob(2, 1, 4, "degree of "
                                                                                                "each cofactor")}
    groups = {"easy": {"gcd_degree": 2, "cofactor_degree": 1}, "medium": {"gcd_degree": 2, "cofactor_degree": 2},
              "hard": {"gcd_degree": 3, "cofactor_degree": 3}}
    answer_format = "the gcd (any non-zero constant multiple of it), e.g. `x**2 - 3*x + 1`."
    baselines = {"one": "1 (as if coprime)", "difference": "the difference of the two polynomials",
                 "linear_common": "the product of the common linear factors x - r with integer r only"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        g = _random_poly(rng, p.gcd_degree)
        a, b = _random_poly(rng, p.cofactor_degree), _random_poly(rng, p.cofactor_degree + rng.randint(0, 1))
        f1, f2 = sp.expand(g * a), sp.expand(g * b)
        gcd = sp.gcd(sp.Poly(f1, X), sp.Poly(f2, X))
        if gcd.degree() != p.gcd_degree:  # the cofactors share a factor: the gcd is larger
            return None
        inst = {"first": text(f1), "second": text(f2), "answer": text(gcd.as_expr()), "degree": p.gcd_degree}
        return None if self.cheap(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        return (f"Find the greatest common divisor of the polynomials\n\n    p(x) = {inst['first']}\n"
                f"    q(x) = {inst['second']}")

    def check(self, inst: dict[str, Any], answer: sp.Expr, body: str) -> str | None:
        got = polynomial(answer, X, inst["degree"])
        if got.is_zero or got.degree() != inst["degree"]:
            return "not of the gcd's degree"
        return None if got.monic() == sp.Poly(parse.expression(inst["answer"]), X).monic() else "not the gcd"

    def corrupt(self, inst: dict[str, Any], rng: random.Random) -> str:
        return f"{inst['answer']} + {rng.choice([-2, -1, 1, 2])}"

    def baseline_one(self, inst: dict[str, Any], rng: random.Random) -> str:
        return "1"

    def baseline_difference(self, inst: dict[str, Any], rng: random.Random) -> str:
        return f"{inst['first']} - ({inst['second']})"

    def baseline_linear_common(self, inst: dict[str, Any], rng: random.Random) -> str:
        p, q = (sp.Poly(parse.expression(inst[k]), X) for k in ("first", "second"))
        common = [f"(x - {r})" for r in range(-12, 13) if p.eval(r) == 0 and q.eval(r) == 0]
        return "*".join(common) or "1"
