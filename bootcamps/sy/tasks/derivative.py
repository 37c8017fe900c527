"""sy/derivative: the derivative of an elementary function."""
from __future__ import annotations

import random
from typing import Any

import sympy as sp

from .. import numeric
from ..core import Knob, Task, X, stored, text
from ..functions import derivative, derivative_of_sum, function


class Derivative(Task):
    name = "derivative"
    title = "Derivative of an elementary function"
    knobs = {"level": Knob(1, 0, 2, "0: standard forms, 1: products and compositions, 2: nested"),
             "terms": Knob(2, 1, 4, "terms of the function"),
             "spread": Knob(5, 2, 12, "each term's coefficient in -spread..spread")}
    # easy's standard forms are few: their coefficients range wider, so 1,000 rows stay distinct
    groups = {"easy": {"level": 0, "terms": 2, "spread": 12}, "medium": {"level": 1, "terms": 2, "spread": 5},
              "hard": {"level": 2, "terms": 3, "spread": 5}}
    answer_format = "f'(x) as an expression in x, e.g. `2*x*cos(x**2) + 3`."
    baselines = {"copy": "the function itself", "zero": "0",
                 "power_rule_only": "each factor differentiated alone, the results multiplied (the product rule "
                                    "forgotten)"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        f = function(rng, p.level, p.terms, p.spread)
        f_text = text(f)
        if len(f_text) > 160:
            return None
        derivative = derivative_of_sum(f)
        if not derivative.has(X):
            return None
        inst = {"function": f_text, "answer": text(derivative)}
        return None if self.cheap(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        return f"Differentiate with respect to x:\n\n    f(x) = {inst['function']}"

    def check(self, inst: dict[str, Any], answer: sp.Expr, body: str) -> str | None:
        pts = numeric.points(body, (X,), 0.3, 1.3)
        return None if numeric.equal(answer, stored(inst["answer"]), pts) else "not f'(x)"

    def baseline_copy(self, inst: dict[str, Any], rng: random.Random) -> str:
        return inst["function"]

    def baseline_zero(self, inst: dict[str, Any], rng: random.Random) -> str:
        return "0"

    def baseline_power_rule_only(self, inst: dict[str, Any], rng: random.Random) -> str:
        f = stored(inst["function"])
        terms = [sp.Mul(*[derivative(factor) for factor in sp.Mul.make_args(t)]) for t in sp.Add.make_args(f)]
        return text(sp.Add(*terms))
