"""Exact, safe arithmetic for verifiers and calculator tools. Never `eval` model text.

>>> safe_eval("3 × (4 + 1) ÷ 6")
Fraction(5, 2)

Only numbers, + - * / // % **, unary signs and parentheses are allowed. Names, calls, attributes,
subscripts and comprehensions are refused before anything runs; powers are bounded before they are computed.
"""
from __future__ import annotations

import ast
import math
import re
from fractions import Fraction

from .errors import TooManyOperationsError, UnsafeExpressionError

MAX_LENGTH = 4096
MAX_DEPTH = 64
MAX_EXPONENT = 4096
MAX_BITS = 65536  # numerator/denominator size of any intermediate result

_EXPONENT = re.compile(r"[eE][+-]?0*(\d+)")
_PREFIXED = re.compile(r"(?<![\w.])0[oObB]")
_TRANSLATE = str.maketrans({"×": "*", "÷": "/", "−": "-", "–": "-", "x": "*", "X": "*", "^": "**"})
_BINOPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow)
_SYMBOL = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%", ast.Pow: "**"}
OPERATORS = frozenset(_SYMBOL.values())


def normalise(expr: str) -> str:
    """Map the usual typographic operators (× ÷ − ^) to Python's."""
    return expr.translate(_TRANSLATE)


def safe_eval(expr: str, *, max_length: int = MAX_LENGTH, operators: frozenset[str] | set[str] = OPERATORS,
              signs: bool = True, max_operations: int | None = None) -> Fraction:
    """Evaluate an arithmetic expression exactly. Raises `UnsafeExpressionError` (or ZeroDivisionError).

    `operators` narrows the binary operators allowed (e.g. `{"+", "-", "*", "/"}` for the 24 game) and
    `signs=False` refuses unary + and -; both are checked on the whole tree before anything is computed.
    `max_operations` caps the binary operations (a calculator's per-call cap: `TooManyOperationsError`), checked on
    the same parse once the expression is known to be safe and defined (a refusal or a division by zero first)."""
    if not isinstance(expr, str):
        raise UnsafeExpressionError(f"expression must be a string, not {type(expr).__name__}")
    if len(expr) > max_length:
        raise UnsafeExpressionError(f"expression longer than {max_length} characters")
    text = normalise(expr).strip()
    if not text:
        raise UnsafeExpressionError("empty expression")
    if not text.isascii() or "_" in text or _PREFIXED.search(text):  # "Numbers in answers", docs/bootcamps.md
        raise UnsafeExpressionError("only ASCII decimal numbers (no '_' separators, no 0o/0b literals) are allowed")
    if text.count("(") > MAX_DEPTH:
        raise UnsafeExpressionError(f"expression nested deeper than {MAX_DEPTH}")
    try:
        tree = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, MemoryError, RecursionError) as exc:
        raise UnsafeExpressionError(f"not an arithmetic expression: {exc.__class__.__name__}") from None
    if not signs or operators != OPERATORS:  # the default path stays one walk
        _check_operators(tree, frozenset(operators), signs)
    value = Fraction(_eval(tree.body, 0))
    if max_operations is not None:  # after the walk: an unsafe or undefined expression is refused as such first
        count = sum(isinstance(node, ast.BinOp) for node in ast.walk(tree))
        if count > max_operations:
            raise TooManyOperationsError(count, max_operations)
    return value


def _check_operators(tree: ast.AST, operators: frozenset[str], signs: bool) -> None:
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and _SYMBOL.get(type(node.op)) not in operators:
            raise UnsafeExpressionError(f"operator {_SYMBOL.get(type(node.op), type(node.op).__name__)} "
                                        f"is not allowed here (allowed: {' '.join(sorted(operators))})")
        if isinstance(node, ast.UnaryOp) and not signs:
            raise UnsafeExpressionError("a sign (unary + or -) is not allowed here")


Number = int | Fraction  # exact values; ints stay ints (fast) until a division makes a Fraction


def _check_size(value: Number) -> Number:
    if value.numerator.bit_length() > MAX_BITS or value.denominator.bit_length() > MAX_BITS:
        raise UnsafeExpressionError(f"intermediate result larger than {MAX_BITS} bits")
    return value


def _eval(node: ast.AST, depth: int) -> Number:
    if depth > MAX_DEPTH:
        raise UnsafeExpressionError(f"expression nested deeper than {MAX_DEPTH}")
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise UnsafeExpressionError(f"only numbers are allowed, not {type(value).__name__}")
        if isinstance(value, float):
            if not math.isfinite(value):
                raise UnsafeExpressionError("number out of range")
            return Fraction(repr(value))
        return _check_size(value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.UAdd, ast.USub)):
        operand = _eval(node.operand, depth + 1)
        return operand if isinstance(node.op, ast.UAdd) else -operand
    if isinstance(node, ast.BinOp) and isinstance(node.op, _BINOPS):
        left = _eval(node.left, depth + 1)
        right = _eval(node.right, depth + 1)
        op = node.op
        if isinstance(op, ast.Add):
            return _check_size(left + right)
        if isinstance(op, ast.Sub):
            return _check_size(left - right)
        if isinstance(op, ast.Mult):
            return _check_size(left * right)
        if isinstance(op, ast.Pow):
            return _power(left, right)
        if right == 0:
            raise ZeroDivisionError("division by zero")
        if isinstance(op, ast.Div):
            quotient = Fraction(left, right) if left.__class__ is int and right.__class__ is int else left / right
            return _check_size(quotient)
        if isinstance(op, ast.FloorDiv):
            return left // right
        return _check_size(left % right)
    raise UnsafeExpressionError(f"{type(node).__name__} is not allowed in an arithmetic expression")


def _power(base: Number, exponent: Number) -> Number:
    if exponent.denominator != 1:
        raise UnsafeExpressionError("only integer exponents are allowed")
    e = exponent.numerator
    if abs(e) > MAX_EXPONENT:
        raise UnsafeExpressionError(f"exponent {e} is larger than {MAX_EXPONENT}")
    bits = max(base.numerator.bit_length(), base.denominator.bit_length())
    if bits * abs(e) > MAX_BITS:
        raise UnsafeExpressionError(f"power result would be larger than {MAX_BITS} bits")
    if base == 0 and e < 0:
        raise ZeroDivisionError("zero to a negative power")
    return Fraction(base) ** e if e < 0 else base**e  # int ** negative would be a float


# One number as written in an answer (ASCII only): sign, digits (optionally grouped by commas in threes),
# decimals, exponent. See "Numbers in answers" in docs/bootcamps.md.
_PLAIN_NUMBER = re.compile(r"[+-]?(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?", re.ASCII)


def _one_number(part: str) -> Fraction | None:
    if not _PLAIN_NUMBER.fullmatch(part):
        return None
    match = _EXPONENT.search(part)
    if match and int(match.group(1)) > MAX_EXPONENT:  # "1e999999999" would build a billion-digit integer
        return None
    try:
        return Fraction(part.replace(",", ""))
    except (ValueError, ZeroDivisionError):
        return None


def parse_number(text: object) -> Fraction | None:
    """Parse a final answer: int, float, '1e-4', '2.5E+3', '3/4', '-12', '1,234'. None when it is not a number.

    One policy for every verifier (docs/bootcamps.md, "Numbers in answers"): ASCII digits only; commas only as
    digit groups of three ('1,2,3' is not a number); no other separators inside a number; 'a/b/c' reads left
    to right, (a/b)/c, as every expression does. JSON numbers are accepted too. Never evaluates expressions.
    """
    if isinstance(text, bool) or text is None:
        return None
    if isinstance(text, int):
        return Fraction(text)
    if isinstance(text, float):
        return Fraction(repr(text)) if math.isfinite(text) else None
    if not isinstance(text, str):
        return None
    s = text.strip().replace("\u2212", "-")  # the typographic minus sign is a minus
    if not s or len(s) > 400 or not s.isascii():
        return None
    value: Fraction | None = None
    for i, part in enumerate(s.split("/")):
        number = _one_number(part)
        if number is None:
            return None
        if i == 0:
            value = number
        elif number == 0:
            return None
        else:
            value = value / number  # type: ignore[operator]  # left to right: 1/2/3 = (1/2)/3
    return value


def format_number(value: Fraction, digits: int = 12) -> str:
    """An integer exactly; anything else rounded exactly (from the fraction, never through a float) to `digits`
    significant digits: '27', '0.333333333333', '66348.9166666666667', '1.5e-09', '1e+12288'."""
    if value.denominator == 1:
        try:
            return str(value.numerator)
        except ValueError:  # beyond Python's int-to-str digit limit: scientific notation below
            pass
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    v = abs(value)
    exp = (v.numerator.bit_length() - v.denominator.bit_length()) * 30103 // 100000  # ~log10, then exact:
    while v >= Fraction(10) ** (exp + 1):
        exp += 1
    while v < Fraction(10) ** exp:
        exp -= 1
    scaled = v * Fraction(10) ** (digits - 1 - exp)
    n = round(scaled)  # Fraction rounds half to even
    if n == 10**digits:
        n //= 10
        exp += 1
    figures = str(n).rstrip("0") or "0"
    if -5 <= exp < digits:
        if exp >= 0:
            whole, frac = figures[: exp + 1].ljust(exp + 1, "0"), figures[exp + 1:]
        else:
            whole, frac = "0", "0" * (-exp - 1) + figures
        return f"{sign}{whole}.{frac}" if frac else f"{sign}{whole}"
    mantissa = figures[0] + (f".{figures[1:]}" if len(figures) > 1 else "")
    return f"{sign}{mantissa}e{exp:+03d}"
