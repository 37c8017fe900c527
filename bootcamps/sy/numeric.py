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
    """`expr` at `point` (symbols -> numbers) as an mpmath number, 30 digits (mpf while real, mpc where mpmath's
    functions make it complex); Unevaluable when it cannot be done safely."""
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
        v = point[e]
        out = mpmath.mpf(v) if not isinstance(v, (complex, mpmath.mpc)) else mpmath.mpc(v)
    elif e.is_Rational:
        out = mpmath.mpf(e.p) / e.q
    elif e.is_Float:
        out = mpmath.mpf(e)
    elif e is sp.pi:
        out = +mpmath.pi
    elif e is sp.E:
        out = +mpmath.e
    elif e is sp.I:
        out = mpmath.mpc(0, 1)
    elif e.is_Add:  # real values stay mpf (twice as fast as mpc); mpmath turns them complex where they are
        out = mpmath.mpf(0)
        for a in e.args:
            out += _eval(a, point, budget)
    elif e.is_Mul:
        out = mpmath.mpf(1)
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
            out = mpmath.sign(arg.real)
        elif e.func is sp.Abs:
            out = abs(arg)
        else:
            out = _FUNCS[e.func](arg)
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


# -- derivatives by Taylor arithmetic ------------------------------------------------------------------------------
# A jet is [f, f', f''/2] at a point: the derivatives of a model's answer are evaluated alongside its value, node by
# node under the same limits, instead of differentiating the answer symbolically first (SymPy's `diff` of a model's
# expression costs more than its evaluation, and has no bound of its own).
def _d(name: str, u: Any) -> tuple[Any, Any, Any]:
    """(f(u), f'(u), f''(u)) of an elementary function."""
    if name == "sin":
        s, c = mpmath.sin(u), mpmath.cos(u)
        return s, c, -s
    if name == "cos":
        s, c = mpmath.sin(u), mpmath.cos(u)
        return c, -s, -c
    if name == "tan":
        t = mpmath.tan(u)
        return t, 1 + t * t, 2 * t * (1 + t * t)
    if name == "cot":
        c = mpmath.cot(u)
        return c, -(1 + c * c), 2 * c * (1 + c * c)
    if name == "sec":
        s, t = mpmath.sec(u), mpmath.tan(u)
        return s, s * t, s * t * t + s**3
    if name == "csc":
        s, c = mpmath.csc(u), mpmath.cot(u)
        return s, -s * c, s * c * c + s**3
    if name in ("asin", "acos"):
        r = 1 / mpmath.sqrt(1 - u * u)
        sign = 1 if name == "asin" else -1
        return (mpmath.asin(u) if sign == 1 else mpmath.acos(u)), sign * r, sign * u * r**3
    if name == "atan":
        r = 1 / (1 + u * u)
        return mpmath.atan(u), r, -2 * u * r * r
    if name == "sinh":
        return mpmath.sinh(u), mpmath.cosh(u), mpmath.sinh(u)
    if name == "cosh":
        return mpmath.cosh(u), mpmath.sinh(u), mpmath.cosh(u)
    if name == "tanh":
        t = mpmath.tanh(u)
        return t, 1 - t * t, -2 * t * (1 - t * t)
    if name == "exp":
        e = mpmath.exp(u)
        return e, e, e
    if name == "log":
        return mpmath.log(u), 1 / u, -1 / (u * u)
    if name == "Abs":
        if u.imag != 0 or u.real == 0:
            raise Unevaluable("|u| has no derivative there")
        sign = 1 if u.real > 0 else -1
        return abs(u), sign, 0
    raise Unevaluable(f"{name} has no derivative here")


def _compose(f: tuple[Any, Any, Any], u: list) -> list:
    out = [f[0], f[1] * u[1]][: len(u)]
    if len(u) > 2:
        out.append(f[1] * u[2] + f[2] * u[1] * u[1] / 2)
    return [mpmath.mpc(v) for v in out]


def _mul(a: list, b: list) -> list:
    return [sum((a[i] * b[k - i] for i in range(k + 1)), mpmath.mpc(0)) for k in range(len(a))]


def _jet(e: Any, var: sp.Symbol, point: dict[sp.Symbol, Any], size: int, budget: list[int]) -> list:
    budget[0] -= 1
    if budget[0] < 0:
        raise Unevaluable("expression too large to evaluate")
    zero = [mpmath.mpc(0)] * (size - 1)
    if not e.has(var):
        out = [_eval(e, point, budget)] + zero
    elif e == var:
        out = [mpmath.mpc(point[var]), mpmath.mpc(1)] + zero[1:]
    elif e.is_Add:
        out = [mpmath.mpc(0)] * size
        for a in e.args:
            out = [x + y for x, y in zip(out, _jet(a, var, point, size, budget), strict=True)]
    elif e.is_Mul:
        out = [mpmath.mpc(1)] + zero
        for a in e.args:
            out = _mul(out, _jet(a, var, point, size, budget))
            if abs(out[0]) > HUGE:
                raise Unevaluable("value too large")
    elif e.is_Pow:
        base = _jet(e.base, var, point, size, budget)
        if not e.exp.has(var):
            k = _eval(e.exp, point, budget)
            u = base[0]
            if k.imag == 0 and k.real == int(k.real) and 0 <= k.real <= 1000:
                n = int(k.real)  # u**n, u**(n-1)*n, ... with no negative power of a zero u
                out = _compose((u**n, n * u ** max(n - 1, 0), n * (n - 1) * u ** max(n - 2, 0)), base)
            else:
                if u == 0:
                    raise Unevaluable("0 to a negative or non-integer power")
                if abs(k) * abs(mpmath.log(abs(u))) > 700:
                    raise Unevaluable("value too large")
                p = mpmath.power(u, k)
                out = _compose((p, k * p / u, k * (k - 1) * p / (u * u)), base)
        else:  # u**v = exp(v*log(u))
            out = _jet(sp.exp(e.exp * sp.log(e.base)), var, point, size, budget)
    elif e.func in _FUNCS and len(e.args) == 1:
        u = _jet(e.args[0], var, point, size, budget)
        if e.func in (sp.exp, sp.sinh, sp.cosh) and abs(u[0].real) > 690:
            raise Unevaluable("value too large")
        out = _compose(_d(e.func.__name__, u[0]), u)
    else:
        raise Unevaluable(f"{type(e).__name__} cannot be evaluated")
    if not all(mpmath.isfinite(v) and abs(v) <= HUGE for v in out):
        raise Unevaluable("value not finite or too large")
    return out


def derivatives(expr: sp.Expr, var: sp.Symbol, point: dict[sp.Symbol, Any], order: int) -> list[mpmath.mpc]:
    """[f, f', ..., f^(order)] of `expr` in `var` at `point` (order <= 2), evaluated by Taylor arithmetic under the
    same limits as `value`; Unevaluable when it cannot be done safely."""
    budget = [MAX_OPS]
    with mpmath.workdps(DIGITS):
        try:
            jet = _jet(expr, var, point, order + 1, budget)
        except (ZeroDivisionError, OverflowError, ValueError, TypeError, ArithmeticError) as exc:
            if isinstance(exc, Unevaluable):
                raise
            raise Unevaluable(f"{type(exc).__name__} at a sample point") from None
        return [jet[k] * mpmath.factorial(k) for k in range(order + 1)]
