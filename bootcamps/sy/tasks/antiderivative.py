"""sy/antiderivative: an antiderivative of an elementary function, checked by differentiating the answer."""
from __future__ import annotations

import random
from typing import Any

import sympy as sp

from .. import numeric
from ..core import Knob, Task, X, stored, text
from ..functions import derivative_of_sum, function


class Antiderivative(Task):
    name = "antiderivative"
    title = "Antiderivative (indefinite integral)"
    knobs = {"level": Knob(1, 0, 2, "0: standard forms, 1: products and compositions, 2: nested"),
             "terms": Knob(2, 1, 4, "terms of the antiderivative")}
    groups = {"easy": {"level": 0, "terms": 2}, "medium": {"level": 1, "terms": 2}, "hard": {"level": 2, "terms": 2}}
    answer_format = ("one antiderivative F(x) (any constant of integration, or none), e.g. "
                     "`x*sin(x) + cos(x)`.")
    baselines = {"copy": "the integrand itself", "zero": "0", "differentiate": "the integrand's derivative"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        antiderivative = function(rng, p.level, p.terms)
        integrand = derivative_of_sum(antiderivative)  # = sp.diff, each block once
        if not integrand.has(X) or len(text(integrand)) > 200:
            return None
        inst = {"integrand": text(integrand), "answer": text(antiderivative)}
        return None if self.cheap(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        return (f"Find an antiderivative F(x) (F' = f, for x > 0) of\n\n    f(x) = {inst['integrand']}")

    def check(self, inst: dict[str, Any], answer: sp.Expr, body: str) -> str | None:
        f = stored(inst["integrand"])
        try:  # F' by Taylor arithmetic at each point (no symbolic derivative of the model's text)
            same = all(numeric.close(numeric.derivatives(answer, X, p, 1)[1], numeric.value(f, p))
                       for p in numeric.points(body, (X,), 0.3, 1.3))
        except numeric.Unevaluable:
            same = False
        return None if same else "F' is not f"

    def corrupt(self, inst: dict[str, Any], rng: random.Random) -> str:
        return f"{inst['answer']} + {rng.choice([-3, -2, 2, 3])}*x"

    def baseline_copy(self, inst: dict[str, Any], rng: random.Random) -> str:
        return inst["integrand"]

    def baseline_zero(self, inst: dict[str, Any], rng: random.Random) -> str:
        return "0"

    def baseline_differentiate(self, inst: dict[str, Any], rng: random.Random) -> str:
        return text(derivative_of_sum(stored(inst["integrand"])))  # = sp.diff, term by term
