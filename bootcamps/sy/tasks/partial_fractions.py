"""sy/partial_fractions: the partial fraction decomposition of a rational function. The answer must equal the
function and be in decomposed form: a polynomial part plus terms num/q**k with q irreducible, deg num < deg q, and
no two terms over the same q**k (that form is unique, so any correct way of writing it is accepted)."""
from __future__ import annotations

import random
from typing import Any

import sympy as sp

from .. import numeric
from ..core import Knob, Task, X, polynomial, stored, text

MAX_DEGREE = 12


def _form(answer: sp.Expr) -> str | None:
    """Why `answer` is not in decomposed form; None when it is."""
    seen = set()
    for term in sp.Add.make_args(answer):
        num, den = term.as_numer_denom()
        den_poly = polynomial(den, X, MAX_DEGREE)
        if den_poly.degree() == 0:
            polynomial(num, X, MAX_DEGREE)  # the polynomial part
            continue
        _, found = sp.factor_list(den_poly)
        if len(found) != 1:
            return f"the denominator {den} is not a power of one irreducible polynomial"
        base, k = found[0]
        if polynomial(num, X, MAX_DEGREE).degree() >= base.degree():
            return f"the numerator {num} is not of lower degree than {base.as_expr()}"
        key = (base.monic(), k)
        if key in seen:
            return "two terms over the same denominator"
        seen.add(key)
    return None


def apart(fraction: sp.Expr) -> sp.Expr:
    """SymPy's `apart(fraction, x)` (undetermined coefficients), the same expression, with its linear system solved
    by exact elimination over Q instead of `solve` (which takes half of apart's time)."""
    num, den = fraction.as_numer_denom()
    (num_p, den_p), _ = sp.parallel_poly_from_expr((num, den), X, extension=True)
    common, num_p, den_p = num_p.cancel(den_p)
    poly, num_p = num_p.div(den_p, auto=True)
    num_p, den_p = num_p.rat_clear_denoms(den_p)
    if den_p.degree() <= 1:
        partial = num_p.as_expr() / den_p.as_expr()
    else:
        blocks, columns = [], []  # (factor, power, unknowns' columns); column: the unknown's x**m * cofactor
        for f, k in den_p.factor_list()[1]:
            q = den_p
            for i in range(1, k + 1):
                q = q.quo(f)
                first = len(columns)
                columns += [(sp.Poly(X**m, X) * q).set_domain(sp.QQ) for m in range(f.degree() - 1, -1, -1)]
                blocks.append((f, i, first, len(columns)))
        size = den_p.degree()
        matrix = sp.Matrix(size, len(columns), lambda r, c: columns[c].nth(r))
        rhs = sp.Matrix(size, 1, lambda r, _: num_p.nth(r))
        values = matrix.LUsolve(rhs)
        partial = sp.Add(*[sp.Poly(list(values[a:b]), X).as_expr() / f.as_expr()**i for f, i, a, b in blocks])
    terms = sp.Integer(0)
    for term in sp.Add.make_args(partial):
        terms += sp.factor(term)
    return common * (poly.as_expr() + terms)


class PartialFractions(Task):
    name = "partial_fractions"
    title = "Partial fraction decomposition"
    knobs = {"linear": Knob(2, 1, 4, "distinct linear factors of the denominator"),
             "repeat": Knob(1, 0, 1, "one linear factor squared"), "quadratic": Knob(0, 0, 1, "an irreducible "
                                                                                              "quadratic factor"),
             "polynomial_part": Knob(0, 0, 1, "numerator of degree >= the denominator's")}
    groups = {"easy": {"linear": 2, "repeat": 1, "quadratic": 0, "polynomial_part": 0},
              "medium": {"linear": 2, "repeat": 1, "quadratic": 1, "polynomial_part": 0},
              "hard": {"linear": 3, "repeat": 1, "quadratic": 1, "polynomial_part": 1}}
    answer_format = "the sum of partial fractions, e.g. `x + 2 + 3/(x - 1) - 1/(x + 2)**2`."
    baselines = {"copy": "the fraction as given", "cover_up": "the cover-up rule for simple poles only (the "
                                                             "repeated and quadratic terms left out)",
                 "zero": "0"}

    def validate(self, p: Any) -> None:
        if not (p.repeat or p.quadratic):
            raise ValueError("repeat or quadratic must be 1 (with simple poles only the cover-up rule solves it)")

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        roots = rng.sample(range(-5, 6), p.linear)
        den = sp.Mul(*[(X - r) ** (2 if p.repeat and i == 0 else 1) for i, r in enumerate(roots)])
        if p.quadratic:
            den *= X**2 + rng.randint(1, 5)
        den_poly = sp.Poly(den, X)
        d = den_poly.degree()
        top = d + rng.randint(0, 1) if p.polynomial_part else d - 1
        num = sp.Add(*[rng.randint(-6, 6) * X**k for k in range(top + 1)])
        num_poly = sp.Poly(num, X)
        if num_poly.is_zero or num_poly.gcd(den_poly).as_expr() != 1 or (p.polynomial_part and num_poly.degree() < d):
            return None
        fraction = num_poly.as_expr() / den_poly.as_expr()  # both expanded
        decomposed = apart(fraction)
        cover = sp.Add(*[num_poly.eval(r) / den_poly.quo(sp.Poly(X - r, X)).eval(r) / (X - r)
                         for r in roots[1 if p.repeat else 0:]])  # the residue at each simple pole
        inst = {"fraction": text(fraction), "answer": text(decomposed), "cover_up": text(cover)}
        return None if self.cheap(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        return f"Decompose into partial fractions (over the rationals):\n\n    {inst['fraction']}"

    def check(self, inst: dict[str, Any], answer: sp.Expr, body: str) -> str | None:
        pts = numeric.points(body, (X,), 5.5, 9.5)
        if not numeric.equal(answer, stored(inst["fraction"]), pts):
            return "not equal to the fraction"
        return _form(answer)

    def corrupt(self, inst: dict[str, Any], rng: random.Random) -> str:
        terms = list(sp.Add.make_args(stored(inst["answer"])))
        i = rng.randrange(len(terms))
        terms[i] = -terms[i]
        return text(sp.Add(*terms))

    def baseline_copy(self, inst: dict[str, Any], rng: random.Random) -> str:
        return inst["fraction"]

    def baseline_cover_up(self, inst: dict[str, Any], rng: random.Random) -> str:
        return inst["cover_up"]

    def baseline_zero(self, inst: dict[str, Any], rng: random.Random) -> str:
        return "0"
