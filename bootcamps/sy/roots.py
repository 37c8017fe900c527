"""Checks for answers that are a set of numbers (roots, eigenvalues): every stored value given once, nothing else,
compared by value at 30 digits, so any exact form of a root (`1 + sqrt(2)`, `(2 + sqrt(8))/2`) is accepted."""
from __future__ import annotations

import random

import sympy as sp

from . import numeric
from .core import X, nonzero, stored


def same_set(answer: list[sp.Expr], want: list[str]) -> str | None:
    """Why the values `answer` are not the set `want` (stored texts); None when they are (order free)."""
    if len(answer) != len(want):
        return f"{len(answer)} values given, {len(want)} expected"
    try:
        got = [numeric.value(a, {}) for a in answer]
    except numeric.Unevaluable as exc:
        return f"a value cannot be evaluated: {exc}"
    left = [numeric.value(stored(w, ()), {}) for w in want]
    for g in got:
        match = next((i for i, w in enumerate(left) if numeric.close(g, w)), None)
        if match is None:
            return "a value given is not one of them (or is given twice)"
        left.pop(match)
    return None


def factors(rng: random.Random, linear: int, quadratic: int, rational: bool, complex_roots: bool) -> list[sp.Expr]:
    """Factors with distinct roots: `linear` ones (x - r, or (q*x - p) when `rational`) and `quadratic`
    irreducible ones (irrational real roots, or complex ones when `complex_roots`)."""
    out: list[sp.Expr] = []
    seen: set[sp.Expr] = set()
    while len(out) < linear:
        if rational and rng.random() < 0.5:
            q, p = rng.randint(2, 4), nonzero(rng, -7, 7)
            f = q * X - p if sp.gcd(p, q) == 1 else None
        else:
            f = X - rng.randint(-9, 9)
        if f is not None and f not in seen:
            seen.add(f)
            out.append(f)
    while len(out) < linear + quadratic:
        b = rng.randint(-6, 6)
        c = rng.randint(1, 12) if complex_roots and rng.random() < 0.5 else -rng.randint(1, 12)
        f = X**2 + b * X + c
        if b * b - 4 * c != 0 and not sp.sqrt(b * b - 4 * c).is_Rational and f not in seen:
            seen.add(f)
            out.append(f)
    return out
