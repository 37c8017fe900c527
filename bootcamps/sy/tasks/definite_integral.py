"""sy/definite_integral: the exact value of a definite integral (the antiderivative is elementary)."""
from __future__ import annotations

import random
from typing import Any

import sympy as sp

from .. import numeric
from ..core import Knob, Task, X, nonzero, stored, text
from ..functions import derivative_of_sum


def _piece(rng: random.Random, level: int) -> sp.Expr:
    a, b, k = nonzero(rng, -3, 3), rng.randint(1, 4), rng.randint(1, 4)
    pool = [X**k, sp.exp(a * X), sp.log(X + b), sp.sin(a * X), sp.cos(a * X), 1 / (X + b)]
    if level >= 1:
        pool += [X * sp.exp(a * X), sp.atan(X), X * sp.log(X + b), sp.sqrt(X + b)**3, sp.log(X**2 + b)]
    if level >= 2:
        pool += [X**2 * sp.exp(a * X), sp.exp(a * X) * sp.sin(X), X * sp.atan(X), sp.atan(X)**2]
    return rng.choice(pool)


class DefiniteIntegral(Task):
    name = "definite_integral"
    title = "Definite integral, exact value"
    variables = ()
    knobs = {"level": Knob(1, 0, 2, "integrands: 0 standard, 1 by parts or substitution, 2 repeated parts"),
             "terms": Knob(2, 1, 3, "terms of the antiderivative")}
    groups = {"easy": {"level": 0, "terms": 2}, "medium": {"level": 1, "terms": 2}, "hard": {"level": 2, "terms": 2}}
    answer_format = "the exact value, e.g. `3*log(2) - 1/2 + E`."
    baselines = {"zero": "0", "decimal": "the value rounded to six decimals (not exact)",
                 "endpoints": "f(b) - f(a): the integrand at the bounds, as if it were the antiderivative"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        antiderivative = sp.Add(*[nonzero(rng, -4, 4) * _piece(rng, p.level) for _ in range(p.terms)])
        integrand = derivative_of_sum(antiderivative)  # = sp.diff, each block once
        low = rng.randint(0, 2)
        high = low + rng.randint(1, 2)
        value = antiderivative.subs(X, high) - antiderivative.subs(X, low)
        if not integrand.has(X) or value == 0 or len(text(integrand)) > 160:
            return None
        inst = {"integrand": text(integrand), "low": low, "high": high, "answer": text(value)}
        return None if self.cheap(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        return (f"Compute the exact value of the integral of f(x) dx from x = {inst['low']} to x = {inst['high']}, "
                f"where\n\n    f(x) = {inst['integrand']}")

    def check(self, inst: dict[str, Any], answer: sp.Expr, body: str) -> str | None:
        return None if numeric.equal(answer, stored(inst["answer"], ()), [{}]) else "another value"

    def baseline_zero(self, inst: dict[str, Any], rng: random.Random) -> str:
        return "0"

    def baseline_decimal(self, inst: dict[str, Any], rng: random.Random) -> str:
        v = numeric.value(stored(inst["answer"], ()), {})
        return f"{float(v.real):.6f}"

    def baseline_endpoints(self, inst: dict[str, Any], rng: random.Random) -> str:
        f = stored(inst["integrand"])
        return text(f.subs(X, inst["high"]) - f.subs(X, inst["low"]))
