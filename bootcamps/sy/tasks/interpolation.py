"""sy/interpolation: the polynomial of least degree through given points (Lagrange interpolation): the answer
must be a polynomial of degree < the number of points taking every given value exactly (that polynomial is
unique, so any way of writing it is accepted)."""
from __future__ import annotations

import random
from typing import Any

import sympy as sp

from ..core import Knob, Task, X, nonzero, polynomial, text


def _through(points: list[tuple[Any, Any]]) -> sp.Expr:
    return sp.expand(sp.interpolate([(sp.Rational(a), sp.Rational(b)) for a, b in points], X))


class Interpolation(Task):
    name = "interpolation"
    title = "Interpolating polynomial through points"
    knobs = {"points": Knob(4, 2, 6, "points (the polynomial's degree is one less)"),
             "spread": Knob(6, 2, 9, "coefficients in -spread..spread"),
             "halves": Knob(0, 0, 1, "rational coefficients with denominator 2")}
    groups = {"easy": {"points": 3, "spread": 6, "halves": 0}, "medium": {"points": 4, "spread": 6, "halves": 0},
              "hard": {"points": 5, "spread": 6, "halves": 1}}
    answer_format = "the polynomial in x, e.g. `x**3/2 - 2*x + 7`."
    baselines = {"line": "the line through the first two points", "first_points": "the interpolant of every point "
                                                                                 "but the last",
                 "constant": "the first point's value"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        degree = p.points - 1
        den = 2 if p.halves else 1
        coeffs = [sp.Rational(rng.randint(-p.spread, p.spread), den) for _ in range(degree)]
        coeffs.append(sp.Rational(nonzero(rng, -p.spread, p.spread), den))
        poly = sp.Add(*[c * X**k for k, c in enumerate(coeffs)])
        xs = sorted(rng.sample(range(-4, 5), p.points))
        points = [(a, poly.subs(X, a)) for a in xs]
        if any(not v.is_Integer for _, v in points):
            return None  # integer values at the given points (halves: only the coefficients are fractions)
        inst = {"points": [[int(a), int(b)] for a, b in points], "answer": text(poly)}
        return None if self.cheap(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        pts = ", ".join(f"({a}, {b})" for a, b in inst["points"])
        return (f"Find the polynomial p(x) of degree at most {len(inst['points']) - 1} whose graph passes through "
                f"the points\n\n    {pts}")

    def check(self, inst: dict[str, Any], answer: sp.Expr, body: str) -> str | None:
        got = polynomial(answer, X, len(inst["points"]) - 1)
        if got.degree() > len(inst["points"]) - 1:
            return "degree too high"
        for a, b in inst["points"]:
            if got.eval(a) != b:
                return f"p({a}) is not {b}"
        return None

    def corrupt(self, inst: dict[str, Any], rng: random.Random) -> str:
        return f"{inst['answer']} + {rng.choice([-1, 1])}*x**{rng.randrange(len(inst['points']))}"

    def baseline_line(self, inst: dict[str, Any], rng: random.Random) -> str:
        return text(_through(inst["points"][:2]))

    def baseline_first_points(self, inst: dict[str, Any], rng: random.Random) -> str:
        return text(_through(inst["points"][:-1]))

    def baseline_constant(self, inst: dict[str, Any], rng: random.Random) -> str:
        return str(inst["points"][0][1])
