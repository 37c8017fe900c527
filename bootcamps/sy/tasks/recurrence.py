"""sy/recurrence: the closed form of a linear recurrence with constant coefficients, checked exactly on the first
25 terms (a closed form of this kind that agrees on that many terms is the sequence)."""
from __future__ import annotations

import random
from typing import Any

import sympy as sp

from .. import numeric, parse
from ..core import Knob, Task, nonzero, text

N = parse.symbol("n")
TERMS = 25


class Recurrence(Task):
    name = "recurrence"
    title = "Closed form of a linear recurrence"
    variables = ("n",)
    knobs = {"order": Knob(2, 1, 3, "order of the recurrence"),
             "repeated": Knob(0, 0, 1, "a repeated characteristic root")}
    groups = {"easy": {"order": 1, "repeated": 0}, "medium": {"order": 2, "repeated": 0},
              "hard": {"order": 2, "repeated": 1}}
    answer_format = "a(n) as an expression in n, e.g. `3*2**n - (-1)**n`."
    baselines = {"dominant_root": "the largest root's term alone, fitted to a(0)",
                 "linear": "a(0) + (a(1) - a(0))*n (the first difference continued)", "zero": "0"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        b = rng.randint(-15, 15)  # a constant part: the recurrence gets a constant (and, order 1, an n) term
        if p.order == 1:  # a(n) = r*a(n-1) + s*n + t: A*r**n + B + C*n
            r, a_, c = rng.choice([-5, -4, -3, -2, 2, 3, 4, 5, 6]), nonzero(rng, -9, 9), rng.randint(-5, 5)
            closed, roots = a_ * r**N + b + c * N, [r]
        elif p.repeated:
            r = rng.choice([-5, -4, -3, -2, 2, 3, 4, 5])
            closed, roots = (rng.randint(-12, 12) + nonzero(rng, -9, 9) * N) * r**N + b, [r, r]
        else:
            r1, r2 = rng.sample([-5, -4, -3, -2, -1, 2, 3, 4, 5], 2)
            closed, roots = nonzero(rng, -9, 9) * r1**N + nonzero(rng, -9, 9) * r2**N + b, [r1, r2]
        coeffs = [int(v) for v in sp.Poly(sp.Mul(*[N - r for r in roots]), N).all_coeffs()[1:]]
        coeffs = [-v for v in coeffs]  # a(n) = sum coeffs[k]*a(n-1-k) + forcing(n)
        order = len(coeffs)
        values = [int(closed.subs(N, k)) for k in range(TERMS)]
        forcing = sp.expand(closed - sum(c * closed.subs(N, N - 1 - k) for k, c in enumerate(coeffs)))
        if forcing.has(sp.Pow) or not all(v.is_Integer for v in sp.Poly(forcing, N).all_coeffs()):
            return None
        inst = {"coefficients": coeffs, "forcing": text(forcing), "start": values[:order],
                "terms": [str(t) for t in values], "answer": text(closed)}
        return None if self.cheap(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        rhs = " + ".join(f"{c}*a(n - {k + 1})" for k, c in enumerate(inst["coefficients"]) if c)
        if inst["forcing"] != "0":
            rhs += f" + ({inst['forcing']})"
        rhs = rhs.replace("+ -", "- ")
        starts = ", ".join(f"a({k}) = {v}" for k, v in enumerate(inst["start"]))
        return (f"The sequence a(n) satisfies a(n) = {rhs} for n >= {len(inst['start'])}, with {starts}. "
                f"Give a closed form for a(n) (valid for every n >= 0).")

    def check(self, inst: dict[str, Any], answer: sp.Expr, body: str) -> str | None:
        for k, want in enumerate(inst["terms"]):
            got = numeric.value(answer, {N: k})
            if not numeric.close(got, int(want)):
                return f"a({k}) differs"
        return None

    def corrupt(self, inst: dict[str, Any], rng: random.Random) -> str:
        return f"{inst['answer']} + {rng.choice([-1, 1])}*n"

    def baseline_dominant_root(self, inst: dict[str, Any], rng: random.Random) -> str:
        c = inst["coefficients"]
        roots = sp.Poly([1] + [-v for v in c], N).all_roots() if len(c) > 1 else [c[0]]
        r = max(roots, key=lambda v: abs(v))
        return f"{inst['start'][0]}*({r})**n"

    def baseline_linear(self, inst: dict[str, Any], rng: random.Random) -> str:
        a0, a1 = int(inst["terms"][0]), int(inst["terms"][1])
        return f"{a0} + {a1 - a0}*n"

    def baseline_zero(self, inst: dict[str, Any], rng: random.Random) -> str:
        return "0"
