"""sy/factor: factor an integer polynomial into irreducible factors over the rationals. The answer must be a
product, as written, of polynomials whose product is the input and which are as many as the irreducible factors
(so each is irreducible, by unique factorisation)."""
from __future__ import annotations

import random
from typing import Any

import sympy as sp

from .. import parse
from ..core import Knob, Task, X, nonzero, polynomial, stored, text


def _irreducible(rng: random.Random, degree: int) -> sp.Expr:
    while True:
        if degree == 1:
            a, b = rng.randint(1, 3), nonzero(rng, -7, 7)
            f = a * X + b
            if sp.gcd(a, b) != 1:
                continue
        else:
            f = X**degree + sp.Add(*[rng.randint(-5, 5) * X**k for k in range(degree)])
        poly = sp.Poly(f, X)
        if poly.is_irreducible and poly.degree() == degree:
            return f


class Factor(Task):
    name = "factor"
    title = "Factor a polynomial over the rationals"
    knobs = {"linear": Knob(2, 0, 4, "linear factors"), "quadratic": Knob(1, 0, 3, "irreducible quadratics"),
             "cubic": Knob(0, 0, 2, "irreducible cubics"), "repeat": Knob(0, 0, 1, "one factor squared")}
    groups = {"easy": {"linear": 2, "quadratic": 1, "cubic": 0, "repeat": 0},
              "medium": {"linear": 2, "quadratic": 1, "cubic": 1, "repeat": 0},
              "hard": {"linear": 2, "quadratic": 2, "cubic": 1, "repeat": 1}}
    answer_format = ("the product of irreducible factors, e.g. `2*(x - 1)**2*(3*x + 2)*(x**2 + x + 5)"
                     "`.")
    baselines = {"copy": "the expanded polynomial itself", "merged": "the right factors with two of them "
                                                                      "multiplied out", "negated": "the right factors "
                                                                                                   "with the sign lost"}

    def validate(self, p: Any) -> None:
        if p.linear + p.quadratic + p.cubic < 2:
            raise ValueError("at least two factors")

    def read(self, body: str) -> list[tuple[sp.Expr, int]]:
        return parse.products(body)

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        parts = [_irreducible(rng, d) for d, count in ((1, p.linear), (2, p.quadratic), (3, p.cubic))
                 for _ in range(count)]
        if len({sp.Poly(f, X).monic() for f in parts}) < len(parts):
            return None
        rng.shuffle(parts)
        powers = [2 if p.repeat and i == 0 else 1 for i in range(len(parts))]
        content = rng.choice([1, 1, 2, -1, 3])
        poly = sp.expand(content * sp.Mul(*[f**k for f, k in zip(parts, powers, strict=True)]))
        written = "*".join(f"({text(f)})" + (f"**{k}" if k > 1 else "") for f, k in zip(parts, powers, strict=True))
        inst = {"polynomial": text(poly), "count": sum(powers), "degree": int(sp.degree(poly, X)),
                "answer": (f"{content}*" if content != 1 else "") + written, "factors": [text(f) for f in parts],
                "powers": powers, "content": content}
        return None if self.cheap(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        return (f"Factor completely over the rationals (into irreducible polynomials with integer or rational "
                f"coefficients):\n\n    {inst['polynomial']}")

    def check(self, inst: dict[str, Any], answer: list[tuple[sp.Expr, int]], body: str) -> str | None:
        degree = inst["degree"]
        polys = [(polynomial(f, X, degree), k) for f, k in answer]
        if sum(poly.degree() * k for poly, k in polys) != degree:
            return "the factors' degrees do not add up to the polynomial's"
        product = sp.Poly(1, X)
        for poly, k in polys:
            product *= poly**k
        if product != sp.Poly(stored(inst["polynomial"]), X):
            return "the product is not the polynomial"
        count = sum(k for poly, k in polys if poly.degree() > 0)
        return None if count == inst["count"] else f"{count} factors: not every factor is irreducible"

    def corrupt(self, inst: dict[str, Any], rng: random.Random) -> str:
        fs = list(inst["factors"])
        i = rng.randrange(len(fs))
        f = parse.expression(fs[i])
        fs[i] = text(f.subs(X, -X))
        return "*".join(f"({f})" for f in fs)

    def baseline_copy(self, inst: dict[str, Any], rng: random.Random) -> str:
        return inst["polynomial"]

    def baseline_merged(self, inst: dict[str, Any], rng: random.Random) -> str:
        fs = [parse.expression(f)**k for f, k in zip(inst["factors"], inst["powers"], strict=True)]
        merged = [sp.expand(fs[0] * fs[1])] + fs[2:]
        return "*".join([str(inst["content"])] + [f"({text(f)})" for f in merged])

    def baseline_negated(self, inst: dict[str, Any], rng: random.Random) -> str:
        return f"-{inst['answer']}"
