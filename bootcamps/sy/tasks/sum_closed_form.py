"""sy/sum_closed_form: a closed form in n of sum_{k=1}^{n} t(k), t a polynomial (times r**k, plus c*k); checked exactly for
n = 1..25 (such a closed form agreeing on that many values is the sum)."""
from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import sympy as sp

from .. import numeric, parse
from ..core import Knob, Task, nonzero, stored, text

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
        cs = [rng.randint(-12, 12) for _ in range(p.degree)] + [nonzero(rng, -12, 12)]
        poly = sp.Add(*[c * K**d for d, c in enumerate(cs[:-1])]) + cs[-1] * K**p.degree
        term, basis = poly, [(1, j) for j in range(p.degree + 2)]
        r, c = Fraction(1), 0
        if p.ratio:
            r = rng.choice([-3, -2, 2, 3, 4, 5, sp.Rational(1, 2), sp.Rational(1, 3), sp.Rational(-1, 2)])
            c = rng.randint(-12, 12)
            term = poly * r**K + c * K
            basis = [(r, j) for j in range(p.degree + 1)] + [(1, j) for j in range(3)]
            r = Fraction(int(r.p), int(r.q)) if isinstance(r, sp.Rational) else Fraction(r)
        values = [Fraction(0)]
        for k in range(1, VALUES + 1):  # exact sums in Python's fractions (SymPy's subs is 100 times slower)
            values.append(values[-1] + sum(v * k**d for d, v in enumerate(cs)) * r**k + c * k)
        closed = _fit(basis, values)
        if closed is None:
            return None
        inst = {"term": text(term), "values": [str(v) for v in values[1:]], "answer": text(closed)}
        return None if self.cheap(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        return (f"Find a closed form (no sum sign) for S(n) = sum of t(k) for k = 1, 2, ..., n, where\n\n"
                f"    t(k) = {inst['term']}")

    def check(self, inst: dict[str, Any], answer: sp.Expr, body: str) -> str | None:
        for n, want in enumerate(inst["values"], start=1):
            if not numeric.close(numeric.value(answer, {N: n}), numeric.value(stored(want, ()), {})):
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


def _fit(basis: list[tuple[Any, int]], values: list[Fraction]) -> sp.Expr | None:
    """The combination of `basis` ((r, j): r**n*n**j) through the values S(0), S(1), ...: the closed form (None when
    it does not reproduce every value, or the basis is singular there)."""
    def at(f: tuple[Any, int], n: int) -> Fraction:
        r = f[0] if isinstance(f[0], int) else Fraction(int(f[0].p), int(f[0].q))
        return Fraction(r) ** n * n ** f[1]

    size = len(basis)
    rows = [[at(f, n) for f in basis] + [values[n]] for n in range(size)]
    for col in range(size):  # Gauss-Jordan over Q
        pivot = next((i for i in range(col, size) if rows[i][col]), None)
        if pivot is None:
            return None
        rows[col], rows[pivot] = rows[pivot], rows[col]
        rows[col] = [v / rows[col][col] for v in rows[col]]
        for i in range(size):
            if i != col and rows[i][col]:
                rows[i] = [a - rows[i][col] * b for a, b in zip(rows[i], rows[col], strict=True)]
    coeffs = [row[-1] for row in rows]
    if any(sum(c * at(f, n) for c, f in zip(coeffs, basis, strict=True)) != v for n, v in enumerate(values)):
        return None
    terms = [(r**N if r != 1 else 1) * N**j for r, j in basis]
    closed = sp.Add(*[sp.Rational(c.numerator, c.denominator) * f for c, f in zip(coeffs, terms, strict=True)])
    return sp.collect(closed, [f for f in terms if f.has(sp.Pow) and not f.is_polynomial(N)] or [N])
