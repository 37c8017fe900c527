"""sy/sum_closed_form: a closed form in n of sum_{k=1}^{n} t(k), t a polynomial (times r**k, plus c*k); checked exactly for
n = 1..25 (such a closed form agreeing on that many values is the sum)."""
from __future__ import annotations

import random
from typing import Any

import sympy as sp

from .. import numeric, parse
from ..core import Knob, Task, nonzero, text

N, K = parse.symbol("n"), parse.symbol("k")
VALUES = 25


class SumClosedForm(Task):
    name = "sum_closed_form"
    title = "Closed form of a finite sum"
    variables = ("n",)
    knobs = {"degree": Knob(2, 0, 3, "degree of the polynomial factor"), "ratio": Knob(1, 0, 1, "a geometric "
                                                                                              "factor r**k")}
    groups = {"easy": {"degree": 3, "ratio": 0}, "medium": {"degree": 1, "ratio": 1}, "hard": {"degree": 2, "ratio": 1}}
    answer_format = "S(n) as an expression in n, e.g. `n*(n + 1)*(2*n + 1)/6`."
    baselines = {"last_term": "the last term t(n)", "constant_terms": "n*t(1), as if every term were the first", "zero": "0"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        poly = sp.Add(*[rng.randint(-12, 12) * K**d for d in range(p.degree)]) + nonzero(rng, -12, 12) * K**p.degree
        term, basis = poly, [N**j for j in range(p.degree + 2)]
        if p.ratio:
            r = rng.choice([-3, -2, 2, 3, 4, 5, sp.Rational(1, 2), sp.Rational(1, 3), sp.Rational(-1, 2)])
            term = poly * r**K + rng.randint(-12, 12) * K
            basis = [r**N * N**j for j in range(p.degree + 1)] + [N**j for j in range(3)]
        values = [sp.Integer(0)]
        for k in range(1, VALUES + 1):
            values.append(values[-1] + term.subs(K, k))
        closed = _fit(basis, values)
        if closed is None:
            return None
        inst = {"term": text(term), "values": [text(v) for v in values[1:]], "answer": text(closed)}
        return None if self.cheap(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        return (f"Find a closed form (no sum sign) for S(n) = sum of t(k) for k = 1, 2, ..., n, where\n\n"
                f"    t(k) = {inst['term']}")

    def check(self, inst: dict[str, Any], answer: sp.Expr, body: str) -> str | None:
        for n, want in enumerate(inst["values"], start=1):
            if not numeric.close(numeric.value(answer, {N: n}), numeric.value(parse.expression(want, ()), {})):
                return f"S({n}) differs"
        return None

    def corrupt(self, inst: dict[str, Any], rng: random.Random) -> str:
        return f"{inst['answer']} + {rng.choice([-1, 1])}*n"

    def baseline_last_term(self, inst: dict[str, Any], rng: random.Random) -> str:
        return text(parse.expression(inst["term"], ("k",)).subs(K, N))

    def baseline_constant_terms(self, inst: dict[str, Any], rng: random.Random) -> str:
        return f"n*({inst['values'][0]})"

    def baseline_zero(self, inst: dict[str, Any], rng: random.Random) -> str:
        return "0"


def _fit(basis: list[sp.Expr], values: list[sp.Expr]) -> sp.Expr | None:
    """The combination of `basis` (functions of n) through the values S(0), S(1), ...: the closed form (None when
    it does not reproduce every value)."""
    rows = sp.Matrix([[f.subs(N, n) for f in basis] for n in range(len(basis))])
    coeffs = rows.LUsolve(sp.Matrix(values[: len(basis)]))
    closed = sp.Add(*[c * f for c, f in zip(coeffs, basis, strict=True)])
    if any(closed.subs(N, n) != v for n, v in enumerate(values)):
        return None
    return sp.collect(closed, [f for f in basis if f.has(sp.Pow) and not f.is_polynomial(N)] or [N])
