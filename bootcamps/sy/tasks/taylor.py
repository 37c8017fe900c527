"""sy/taylor: the Maclaurin polynomial of a product of standard functions up to a given degree."""
from __future__ import annotations

import random
from typing import Any

import sympy as sp

from ..core import Knob, Task, X, polynomial, text
from ..series import plus, product, times
from ..series import polynomial as series_polynomial


class Taylor(Task):
    name = "taylor"
    title = "Taylor (Maclaurin) polynomial"
    knobs = {"factors": Knob(1, 0, 3, "standard functions multiplied to the first one"),
             "degree": Knob(4, 2, 8, "degree asked")}
    groups = {"easy": {"factors": 1, "degree": 3}, "medium": {"factors": 1, "degree": 5},
              "hard": {"factors": 2, "degree": 5}}
    answer_format = ("the polynomial (every term up to x**n, expanded), e.g. `1 + 2*x - x**3/3`.")
    baselines = {"copy": "the function itself", "linear": "the tangent line f(0) + f'(0)*x",
                 "first_factor": "one factor's polynomial alone (the product forgotten)"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        f, coeffs = product(rng, p.factors, p.degree)
        first, first_coeffs = product(rng, 1, p.degree)
        f, coeffs = f * first, times(coeffs, first_coeffs)
        c = rng.randint(-3, 3)
        if c:  # a second, added term
            g, more = product(rng, 1, p.degree)
            f, coeffs = f + c * g, plus(coeffs, more, c)
        if sum(1 for k in coeffs if k) < 3 or not coeffs[p.degree]:
            return None
        inst = {"function": text(f), "degree": p.degree, "answer": text(series_polynomial(coeffs, p.degree)),
                "coefficients": [text(k) for k in coeffs],
                "one_factor": text(series_polynomial(first_coeffs, p.degree))}
        return None if self.cheap(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        return (f"Give the Taylor polynomial of degree {inst['degree']} of f at x = 0 (every term up to and "
                f"including x**{inst['degree']}):\n\n    f(x) = {inst['function']}")

    def check(self, inst: dict[str, Any], answer: sp.Expr, body: str) -> str | None:
        poly = polynomial(answer, X, inst["degree"])
        got = [poly.coeff_monomial(X**n) for n in range(inst["degree"] + 1)]
        want = [sp.Rational(k) for k in inst["coefficients"]]
        return None if got == want else "coefficients differ"

    def corrupt(self, inst: dict[str, Any], rng: random.Random) -> str:
        n = inst["degree"]
        return f"{inst['answer']} - 2*({inst['coefficients'][n]})*x**{n}"

    def baseline_copy(self, inst: dict[str, Any], rng: random.Random) -> str:
        return inst["function"]

    def baseline_linear(self, inst: dict[str, Any], rng: random.Random) -> str:
        c = inst["coefficients"]
        return f"{c[0]} + ({c[1]})*x"

    def baseline_first_factor(self, inst: dict[str, Any], rng: random.Random) -> str:
        return inst["one_factor"]
