"""sy/ode: the solution of a linear ODE with constant coefficients and initial conditions, checked by
substitution into the equation and the initial conditions (the solution is unique, so any form is accepted)."""
from __future__ import annotations

import random
from typing import Any

import mpmath
import sympy as sp

from .. import numeric
from ..core import Knob, Task, X, nonzero, stored, text
from ..functions import derivative_of_sum


def _forcing_solution(rng: random.Random) -> sp.Expr:
    """A particular solution y_p: two of a linear polynomial, an exponential and a sine or cosine (the equation is
    always forced: unforced, the homogeneous solution fitted to the initial conditions is the answer)."""
    kinds = [nonzero(rng, -5, 5) * X + rng.randint(-5, 5), nonzero(rng, -5, 5) * sp.exp(nonzero(rng, -3, 3) * X),
             nonzero(rng, -5, 5) * rng.choice([sp.sin, sp.cos])(rng.randint(1, 4) * X)]
    return sp.Add(*rng.sample(kinds, 2))


class Ode(Task):
    name = "ode"
    title = "Linear ODE with initial conditions"
    knobs = {"order": Knob(2, 1, 2, "order of the equation"),
             "roots": Knob(0, 0, 2, "second order: 0 distinct real, 1 repeated, 2 complex characteristic roots")}
    groups = {"easy": {"order": 1, "roots": 0}, "medium": {"order": 2, "roots": 0}, "hard": {"order": 2, "roots": 2}}
    answer_format = "y(x) as an expression in x, e.g. `2*exp(-x) + x - 1`."
    baselines = {"zero": "y = 0", "homogeneous_only": "the homogeneous solution fitted to the initial conditions "
                                                      "(the forcing ignored)",
                 "constant": "the initial value y(0) as a constant"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        if p.order == 1:
            r = nonzero(rng, -5, 5)
            basis = [sp.exp(r * X)]
            poly = [-r, 1]  # y' - r y
        elif p.roots == 0:
            r1, r2 = rng.sample([v for v in range(-3, 4) if v], 2)
            basis, poly = [sp.exp(r1 * X), sp.exp(r2 * X)], [r1 * r2, -(r1 + r2), 1]
        elif p.roots == 1:
            r = nonzero(rng, -3, 3)
            basis, poly = [sp.exp(r * X), X * sp.exp(r * X)], [r * r, -2 * r, 1]
        else:
            a, b = rng.randint(-2, 2), rng.randint(1, 3)
            basis, poly = [sp.exp(a * X) * sp.cos(b * X), sp.exp(a * X) * sp.sin(b * X)], [a * a + b * b, -2 * a, 1]
        yp = _forcing_solution(rng)
        forcing = sp.expand(sum(c * derivative_of_sum(yp, k) for k, c in enumerate(poly)))
        if forcing == 0:
            return None
        cs = [nonzero(rng, -9, 9) for _ in basis]
        y = sp.Add(*[c * f for c, f in zip(cs, basis, strict=True)]) + yp
        initial = [derivative_of_sum(y, k).subs(X, 0) for k in range(p.order)]
        homogeneous = _fit(basis, initial)
        inst = {"coefficients": poly, "forcing": text(forcing), "initial": [text(v) for v in initial],
                "answer": text(y), "homogeneous": text(homogeneous)}
        return None if self.cheap(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        names = ["y", "y'", "y''"]
        lhs = " + ".join(f"{c}*{names[k]}" if c != 1 else names[k]
                         for k, c in reversed(list(enumerate(inst["coefficients"]))) if c).replace("+ -", "- ")
        ics = ", ".join(f"{names[k]}(0) = {v}" for k, v in enumerate(inst["initial"]))
        return f"Solve the initial value problem\n\n    {lhs} = {inst['forcing']},   {ics}\n\nfor y(x)."

    def check(self, inst: dict[str, Any], answer: sp.Expr, body: str) -> str | None:
        coeffs, forcing = inst["coefficients"], stored(inst["forcing"])
        order = len(coeffs) - 1
        try:  # y, y', y'' by Taylor arithmetic at each point (no symbolic derivative of the model's text)
            for p in numeric.points(body, (X,), -1.0, 1.0):
                ys = numeric.derivatives(answer, X, p, order)
                with mpmath.workdps(numeric.DIGITS):
                    lhs = sum(c * y for c, y in zip(coeffs, ys, strict=True))
                if not numeric.close(lhs, numeric.value(forcing, p)):
                    return "does not satisfy the equation"
            at_zero = numeric.derivatives(answer, X, {X: 0}, order)
        except numeric.Unevaluable:
            return "does not satisfy the equation"
        for k, v in enumerate(inst["initial"]):
            try:
                right = numeric.close(at_zero[k], numeric.value(stored(v, ()), {}))
            except numeric.Unevaluable:
                right = False
            if not right:
                return f"initial condition {k} fails"
        return None

    def corrupt(self, inst: dict[str, Any], rng: random.Random) -> str:
        return f"{inst['answer']} + {rng.choice([-1, 1])}*x**2"

    def baseline_zero(self, inst: dict[str, Any], rng: random.Random) -> str:
        return "0"

    def baseline_homogeneous_only(self, inst: dict[str, Any], rng: random.Random) -> str:
        return inst["homogeneous"]

    def baseline_constant(self, inst: dict[str, Any], rng: random.Random) -> str:
        return inst["initial"][0]


def _fit(basis: list[sp.Expr], initial: list[sp.Expr]) -> sp.Expr:
    """The combination of `basis` with the given y(0), y'(0), ...: the homogeneous solution fitted to them."""
    rows = sp.Matrix([[derivative_of_sum(f, k).subs(X, 0) for f in basis] for k in range(len(basis))])
    cs = rows.LUsolve(sp.Matrix(initial))
    return sp.Add(*[c * f for c, f in zip(cs, basis, strict=True)])
