"""Random elementary functions of x for the calculus tasks: easy ones are single standard forms, medium ones
products and chain-rule compositions, hard ones products of compositions and quotients."""
from __future__ import annotations

import functools
import random

import sympy as sp

from .core import X, nonzero


def atom(rng: random.Random, level: int) -> sp.Expr:
    """One building block; `level` 0 (standard forms), 1 (products, compositions) or 2 (nested)."""
    a, b, k = nonzero(rng, -4, 4), rng.randint(1, 5), rng.randint(2, 5)
    if level == 0:
        return rng.choice([X**k, sp.sin(a * X), sp.cos(a * X), sp.exp(a * X), sp.log(b * X), X**k * b,
                           sp.sqrt(b * X), 1 / (X + b)])
    if level == 1:
        return rng.choice([X**k * sp.exp(a * X), X * sp.sin(a * X), X * sp.cos(a * X), sp.sin(a * X**2),
                           sp.exp(a * X) * sp.cos(b * X), sp.log(X**2 + b), sp.atan(a * X), X * sp.log(b * X),
                           sp.exp(a * X**2), sp.sqrt(X**2 + b), sp.cos(a * X + b)**2])
    return rng.choice([sp.exp(sp.sin(a * X)), sp.log(X**2 + b) * X, X**2 * sp.atan(a * X),
                       sp.sin(a * X) * sp.exp(b * X) * X, sp.sqrt(X**2 + b) * X**k, sp.log(sp.cos(X) + b),
                       X / (X**2 + b), sp.exp(a * X) / (X + b), sp.atan(X**2 + a), sp.sin(sp.sqrt(X + b))])


def function(rng: random.Random, level: int, terms: int, spread: int = 5) -> sp.Expr:
    """A sum of `terms` blocks of `level` with integer coefficients in -spread..spread."""
    return sp.Add(*[nonzero(rng, -spread, spread) * atom(rng, level) for _ in range(terms)])


@functools.lru_cache(maxsize=4096)
def derivative(expr: sp.Expr, order: int = 1) -> sp.Expr:
    """d^order/dx^order of a generated block (the blocks repeat: each is differentiated once a process)."""
    return sp.diff(expr, X, order)


def derivative_of_sum(f: sp.Expr, order: int = 1) -> sp.Expr:
    """d^order/dx^order of a sum of generated blocks, term by term (each term a number times a block): the same
    expression as `sp.diff(f, x, order)`."""
    if order == 0:
        return f
    out = []
    for term in sp.Add.make_args(f):
        coeff, rest = term.as_coeff_Mul()
        out.append(coeff * derivative(rest, order))
    return sp.Add(*out)
