"""sy/limit: lim_{x -> 0} N(x) / x**k, where N's first k Maclaurin coefficients cancel (a 0/0 form whose value
is N's coefficient of x**k)."""
from __future__ import annotations

import random
from typing import Any

import sympy as sp

from .. import numeric
from ..core import Knob, Task, nonzero, stored, text
from ..series import plus, polynomial, product


class Limit(Task):
    name = "limit"
    title = "Limit of a 0/0 form at x = 0"
    variables = ()
    knobs = {"factors": Knob(1, 1, 3, "standard functions multiplied in the first term"),
             "order": Knob(2, 1, 5, "the power k of x in the denominator")}
    groups = {"easy": {"factors": 1, "order": 2}, "medium": {"factors": 2, "order": 2},
              "hard": {"factors": 2, "order": 3}}
    answer_format = "the exact value, e.g. `-7/3`."
    baselines = {"zero": "0", "one": "1", "one_step": "the next order's coefficient (x**(k+1) of the numerator "
                                                    "over the denominator's constant): one order too many"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        k = p.order
        f, coeffs = product(rng, p.factors, k + 1, amplitude=4)
        c = rng.choice([-5, -4, -3, -2, -1, 1, 2, 3, 4, 5])
        g, more = product(rng, 1, k + 1, amplitude=4)
        f, coeffs = f + c * g, plus(coeffs, more, c)
        scale, divisor = nonzero(rng, -9, 9), rng.randint(1, 12)
        value = coeffs[k] * scale / divisor
        if not value or abs(value.p) > 5000:
            return None
        numerator = sp.expand(scale * (f - polynomial(coeffs, k - 1)))
        inst = {"numerator": text(numerator), "divisor": divisor, "order": k, "answer": text(value),
                "near_miss": text(coeffs[k + 1] * scale / divisor)}
        return None if self.cheap(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        power = "x" if inst["order"] == 1 else f"x**{inst['order']}"
        if inst["divisor"] != 1:
            power = f"({inst['divisor']}*{power})"
        return f"Find the limit as x -> 0 of\n\n    ({inst['numerator']}) / {power}"

    def check(self, inst: dict[str, Any], answer: sp.Expr, body: str) -> str | None:
        right = numeric.equal(answer, stored(inst["answer"], ()), [{}])
        return None if right else "another value"

    def baseline_zero(self, inst: dict[str, Any], rng: random.Random) -> str:
        return "0"

    def baseline_one(self, inst: dict[str, Any], rng: random.Random) -> str:
        return "1"

    def baseline_one_step(self, inst: dict[str, Any], rng: random.Random) -> str:
        return inst["near_miss"]
