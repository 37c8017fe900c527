"""Exact Maclaurin coefficients of the standard functions (exp, sin, cos, log(1+ax), atan, 1/(1-ax), sinh, cosh,
sqrt(1+ax)) and of their sums and products, as lists of SymPy rationals: fast and exact, no `series` call."""
from __future__ import annotations

import random

import sympy as sp

from .core import X, nonzero

KINDS = ("exp", "sin", "cos", "log1p", "atan", "geometric", "sinh", "cosh", "sqrt1p")


def coefficients(kind: str, a: int, order: int) -> list[sp.Rational]:
    """The coefficients of x^0..x^order of the function `kind` of a*x."""
    out = []
    for n in range(order + 1):
        f = sp.factorial(n)
        c = {"exp": sp.Rational(a**n, f),
             "sin": sp.Rational((-1) ** (n // 2) * a**n, f) if n % 2 else sp.Integer(0),
             "cos": sp.Integer(0) if n % 2 else sp.Rational((-1) ** (n // 2) * a**n, f),
             "log1p": sp.Rational((-1) ** (n + 1) * a**n, n) if n else sp.Integer(0),
             "atan": sp.Rational((-1) ** (n // 2) * a**n, n) if n % 2 else sp.Integer(0),
             "geometric": sp.Integer(a**n),
             "sinh": sp.Rational(a**n, f) if n % 2 else sp.Integer(0),
             "cosh": sp.Integer(0) if n % 2 else sp.Rational(a**n, f),
             "sqrt1p": sp.binomial(sp.Rational(1, 2), n) * a**n}[kind]
        out.append(sp.Rational(c))
    return out


def function(kind: str, a: int) -> sp.Expr:
    ax = a * X
    return {"exp": sp.exp(ax), "sin": sp.sin(ax), "cos": sp.cos(ax), "log1p": sp.log(1 + ax), "atan": sp.atan(ax),
            "geometric": 1 / (1 - ax), "sinh": sp.sinh(ax), "cosh": sp.cosh(ax), "sqrt1p": sp.sqrt(1 + ax)}[kind]


def times(p: list[sp.Rational], q: list[sp.Rational]) -> list[sp.Rational]:
    order = len(p) - 1
    return [sp.Add(*[p[i] * q[n - i] for i in range(n + 1)]) for n in range(order + 1)]


def plus(p: list[sp.Rational], q: list[sp.Rational], c: int = 1) -> list[sp.Rational]:
    return [a + c * b for a, b in zip(p, q, strict=True)]


def product(rng: random.Random, factors: int, order: int, kinds: tuple[str, ...] = KINDS,
            amplitude: int = 3) -> tuple[sp.Expr, list[sp.Rational]]:
    """A product of `factors` distinct standard functions of a*x (a random, non-zero) and its coefficients."""
    expr, coeffs = sp.Integer(1), [sp.Integer(1)] + [sp.Integer(0)] * order
    for kind in rng.sample(kinds, factors):
        a = nonzero(rng, -amplitude, amplitude)
        expr, coeffs = expr * function(kind, a), times(coeffs, coefficients(kind, a, order))
    return expr, coeffs


def polynomial(coeffs: list[sp.Rational], upto: int) -> sp.Expr:
    return sp.Add(*[c * X**n for n, c in enumerate(coeffs[: upto + 1])])
