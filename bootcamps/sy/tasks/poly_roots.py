"""sy/poly_roots: every distinct root (real and complex) of an integer polynomial, given exactly."""
from __future__ import annotations

import random
from typing import Any

import sympy as sp

from .. import parse
from ..core import Knob, Task, X, text
from ..roots import factors, same_set


class PolyRoots(Task):
    name = "poly_roots"
    title = "Roots of a polynomial equation"
    knobs = {"linear": Knob(2, 0, 4, "rational roots"), "quadratic": Knob(1, 1, 2, "irreducible quadratic factors"),
             "complex": Knob(1, 0, 1, "quadratic factors may have complex roots")}
    groups = {"easy": {"linear": 2, "quadratic": 1, "complex": 0}, "medium": {"linear": 3, "quadratic": 1, "complex": 1},
              "hard": {"linear": 2, "quadratic": 2, "complex": 1}}
    answer_format = ("every distinct root once, separated by commas, e.g. `-1/2, 3, 1 - sqrt(2), "
                     "1 + sqrt(2)`.")
    baselines = {"integer_roots": "the integer roots only (rational root test on the integers)",
                 "zero": "0", "decimals": "the roots as 8-digit decimals"}

    def read(self, body: str) -> list[sp.Expr]:
        return parse.items(body, ())

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        parts = factors(rng, p.linear, p.quadratic, rational=p.linear > 1, complex_roots=bool(p.complex))
        poly = sp.expand(nonzero_content(rng) * sp.Mul(*parts))
        roots = [r for f in parts for r in sp.roots(sp.Poly(f, X))]
        inst = {"polynomial": text(poly), "roots": [text(r) for r in roots],
                "answer": ", ".join(text(r) for r in roots)}
        return None if self.cheap(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        return f"Find every root (real or complex) of\n\n    {inst['polynomial']} = 0"

    def check(self, inst: dict[str, Any], answer: list[sp.Expr], body: str) -> str | None:
        return same_set(answer, inst["roots"])

    def corrupt(self, inst: dict[str, Any], rng: random.Random) -> str:
        roots = list(inst["roots"])
        i = rng.randrange(len(roots))
        roots[i] = f"-({roots[i]})" if rng.random() < 0.5 else f"{roots[i]} + 1"
        return ", ".join(roots)

    def baseline_integer_roots(self, inst: dict[str, Any], rng: random.Random) -> str:
        poly = sp.Poly(parse.expression(inst["polynomial"]), X)
        return ", ".join(str(r) for r in range(-12, 13) if poly.eval(r) == 0) or "0"

    def baseline_zero(self, inst: dict[str, Any], rng: random.Random) -> str:
        return "0"

    def baseline_decimals(self, inst: dict[str, Any], rng: random.Random) -> str:
        from ..numeric import value
        out = []
        for r in inst["roots"]:
            v = value(parse.expression(r, ()), {})
            out.append(f"{float(v.real):.8f}" + (f" + {float(v.imag):.8f}*I" if v.imag else ""))
        return ", ".join(out)


def nonzero_content(rng: random.Random) -> int:
    return rng.choice([1, 1, 1, 2, 3, -1])
