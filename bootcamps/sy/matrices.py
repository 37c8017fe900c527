"""Integer matrices for the matrix tasks, and their text (rows in brackets, as the answer format asks)."""
from __future__ import annotations

import random

import sympy as sp


def unimodular(rng: random.Random, n: int, steps: int) -> sp.Matrix:
    """A random integer matrix of determinant +-1 (row operations on the identity), entries kept small."""
    m = [[int(r == c) for c in range(n)] for r in range(n)]  # plain integers: SymPy's row operations cost 100x
    for _ in range(steps):
        i, j = rng.sample(range(n), 2)
        c = rng.choice([-2, -1, 1, 2])
        row = [a + c * b for a, b in zip(m[i], m[j], strict=True)]
        if max(abs(v) for v in row) <= 6:
            m[i] = row
    return sp.Matrix(m)


def rows(m: sp.Matrix) -> str:
    return "[" + ", ".join("[" + ", ".join(str(v) for v in m.row(i)) + "]" for i in range(m.rows)) + "]"


def block(m: sp.Matrix) -> str:
    """The matrix one row a line, for prompts."""
    return "\n".join("    [" + ", ".join(f"{str(v):>3}" for v in m.row(i)) + "]" for i in range(m.rows))
