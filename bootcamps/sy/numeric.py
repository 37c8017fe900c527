"""Equality of expressions by evaluation: a SymPy tree evaluated with mpmath at 30 digits, node by node, refusing
any value beyond 10^300 in size (so a hostile answer like exp(exp(exp(x))) stops at the first huge value instead
of building it), and two expressions called equal when they agree to 1e-20 (relative) at every sample point.

Random-point evaluation is the standard zero test for elementary expressions: a non-zero difference of two
short expressions vanishing at several random points to 20 digits does not happen by accident. SymPy's
`simplify` is not used on model text: it has no time bound.
"""
from __future__ import annotations

import random
import zlib
from typing import Any

import mpmath
import sympy as sp

DIGITS = 30
TOLERANCE = mpmath.mpf(10) ** -20
HUGE = mpmath.mpf(10) ** 300
MAX_OPS = 4000  # node visits of one evaluation (a derivative of a 400-node answer stays far below)

_FUNCS: dict[Any, Any] = {
    sp.sin: mpmath.sin, sp.cos: mpmath.cos, sp.tan: mpmath.tan, sp.cot: mpmath.cot, sp.sec: mpmath.sec,
    sp.csc: mpmath.csc, sp.asin: mpmath.asin, sp.acos: mpmath.acos, sp.atan: mpmath.atan, sp.sinh: mpmath.sinh,
    sp.cosh: mpmath.cosh, sp.tanh: mpmath.tanh, sp.exp: mpmath.exp, sp.log: mpmath.log, sp.Abs: abs,
    sp.sign: mpmath.sign,
}


class Unevaluable(ValueError):
    """An expression the evaluator refuses (unknown node, huge value, singular point)."""


def value(expr: sp.Expr, point: dict[sp.Symbol, Any]) -> mpmath.mpc:
    """`expr` at `point` (symbols -> numbers) as an mpmath complex, 30 digits; Unevaluable when it cannot be done
    safely."""
    budget = [MAX_OPS]
    with mpmath.workdps(DIGITS):
        try:
            return _eval(expr, point, budget)
        except (ZeroDivisionError, OverflowError, ValueError, TypeError, ArithmeticError) as exc:
            if isinstance(exc, Unevaluable):
                raise
            raise Unevaluable(f"{type(exc).__name__} at a sample point") from None


def _eval(e: Any, point: dict[sp.Symbol, Any], budget: list[int]) -> mpmath.mpc:
    budget[0] -= 1
    if budget[0] < 0:
        raise Unevaluable("expression too large to evaluate")
    if e.is_Symbol:
        if e not in point:
            raise Unevaluable(f"unexpected variable {e}")
        out = mpmath.mpc(point[e])
    elif e.is_Rational:
        out = mpmath.mpc(mpmath.mpf(e.p) / e.q)
    elif e.is_Float:
        out = mpmath.mpc(mpmath.mpf(e))
    elif e is sp.pi:
        out = mpmath.mpc(mpmath.pi)
    elif e is sp.E:
        out = mpmath.mpc(mpmath.e)
    elif e is sp.I:
        out = mpmath.mpc(0, 1)
    elif e.is_Add:
        out = mpmath.mpc(0)
        for a in e.args:
            out += _eval(a, point, budget)
    elif e.is_Mul:
        out = mpmath.mpc(1)
        for a in e.args:
            out *= _eval(a, point, budget)
            if abs(out) > HUGE:
                raise Unevaluable("value too large")
    elif e.is_Pow:
        base, exponent = _eval(e.base, point, budget), _eval(e.exp, point, budget)
        if exponent.imag == 0 and exponent.real == int(exponent.real) and abs(exponent.real) <= 1000:
            if base == 0 and exponent.real < 0:
                raise Unevaluable("division by zero")
            out = base ** int(exponent.real)  # exact integer power: (-2)**3 stays real
        else:
            if base == 0:
                raise Unevaluable("0 to a non-integer power")
            if abs(exponent) * abs(mpmath.log(abs(base))) > 700:
                raise Unevaluable("value too large")
            out = mpmath.power(base, exponent)
    elif e.func in _FUNCS and len(e.args) == 1:
        arg = _eval(e.args[0], point, budget)
        if e.func in (sp.exp, sp.sinh, sp.cosh) and abs(arg.real) > 690:
            raise Unevaluable("value too large")
        if e.func is sp.sign:
            out = mpmath.mpc(mpmath.sign(arg.real))
        elif e.func is sp.Abs:
            out = mpmath.mpc(abs(arg))
        else:
            out = mpmath.mpc(_FUNCS[e.func](arg))
    else:
        raise Unevaluable(f"{type(e).__name__} cannot be evaluated")
    if not mpmath.isfinite(out) or abs(out) > HUGE:
        raise Unevaluable("value not finite or too large")
    return out


def close(a: Any, b: Any) -> bool:
    """Whether two mpmath numbers agree to 1e-20, relative to the larger (absolute below 1)."""
    with mpmath.workdps(DIGITS):
        return abs(a - b) <= TOLERANCE * max(1, abs(a), abs(b))


def points(seed_text: str, symbols: tuple[sp.Symbol, ...], low: float, high: float, count: int = 3) -> list[dict]:
    """`count` sample points with every symbol in [low, high], drawn from a stream keyed by `seed_text` (the
    answer's text: the same answer is always checked at the same points, and no answer knows them in advance)."""
    rng = random.Random(zlib.crc32(seed_text.encode("utf-8", "replace")))
    return [{s: mpmath.mpf(rng.uniform(low, high)) for s in symbols} for _ in range(count)]


def equal(a: sp.Expr, b: sp.Expr, pts: list[dict]) -> bool:
    """Whether `a` and `b` agree at every point (False when either cannot be evaluated there)."""
    try:
        return all(close(value(a, p), value(b, p)) for p in pts)
    except Unevaluable:
        return False
