"""Model text to SymPy objects without `eval`: Python's own parser (`ast.parse(mode="eval")`) and a walk that admits
only numbers, the task's variables, a few constants, + - * / ** (or ^), and a whitelist of elementary functions,
building the SymPy expression node by node under limits on size, depth, digits and exponents.

>>> expression("x^2*sin(x) + 1/2", ("x",))
x**2*sin(x) + 1/2

`sympify`/`parse_expr` call `eval` on the text; this module never does. Everything it refuses raises `Refused`.
"""
from __future__ import annotations

import ast
import functools
import re
from typing import Any

import sympy as sp

MAX_TEXT = 2000  # characters of one answer
MAX_NODES = 400  # syntax nodes of one answer
MAX_DEPTH = 40
MAX_INT = 10**40  # literals and number bases of a power
MAX_EXPONENT = 100  # |p| and |q| of a number exponent p/q

FUNCTIONS: dict[str, Any] = {
    "sin": sp.sin, "cos": sp.cos, "tan": sp.tan, "cot": sp.cot, "sec": sp.sec, "csc": sp.csc,
    "asin": sp.asin, "acos": sp.acos, "atan": sp.atan, "arcsin": sp.asin, "arccos": sp.acos, "arctan": sp.atan,
    "sinh": sp.sinh, "cosh": sp.cosh, "tanh": sp.tanh, "exp": sp.exp, "log": sp.log, "ln": sp.log,
    "sqrt": sp.sqrt, "Abs": sp.Abs, "abs": sp.Abs,
}
CONSTANTS: dict[str, Any] = {"pi": sp.pi, "E": sp.E, "e": sp.E, "I": sp.I}
_OPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
        ast.Div: lambda a, b: a / b}
_BAD = (sp.zoo, sp.nan, sp.oo, -sp.oo)


class Refused(ValueError):
    """Text the parser does not turn into an expression (not whitelisted, too large, malformed)."""


@functools.cache
def symbol(name: str) -> sp.Symbol:
    """The real SymPy symbol every task and answer shares for `name`."""
    return sp.Symbol(name, real=True)


def syntax(text: str) -> ast.expr:
    """The syntax tree of `text` (`^` read as `**`), refused when long, deep or malformed."""
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        raise Refused("not text, or longer than 2,000 characters")
    text = text.replace("^", "**").replace("−", "-").replace("·", "*").strip()
    if not text or not text.isascii():
        raise Refused("empty, or not ASCII")
    try:
        tree = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise Refused(f"not an expression: {type(exc).__name__}") from None
    count = 0
    stack = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        count += 1
        if count > MAX_NODES or depth > MAX_DEPTH:
            raise Refused("expression too large or too deeply nested")
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return tree


def _number(value: Any) -> sp.Expr:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Refused(f"literal {value!r} is not a number")
    if isinstance(value, float):
        if value != value or abs(value) > 1e40:
            raise Refused("decimal out of range")
        return sp.Rational(repr(value))  # the decimal as written, exactly (0.1 is 1/10)
    if abs(value) >= MAX_INT:
        raise Refused("integer literal over 40 digits")
    return sp.Integer(value)


def _power(base: sp.Expr, exponent: sp.Expr) -> sp.Expr:
    if exponent.is_Number:
        if not exponent.is_Rational or abs(exponent.p) > MAX_EXPONENT or exponent.q > MAX_EXPONENT:
            raise Refused("a number exponent must be a fraction p/q with |p|, q <= 100")
    if base.is_Number and (not base.is_Rational or abs(base.p) >= MAX_INT or base.q >= MAX_INT):
        raise Refused("the base of a power is a number over 40 digits")
    return base**exponent


def build(node: ast.expr, names: dict[str, sp.Expr]) -> sp.Expr:
    """The SymPy expression of a syntax tree whose names are `names` (symbols), the constants and the functions."""
    if isinstance(node, ast.Constant):
        return _number(node.value)
    if isinstance(node, ast.Name):
        if node.id in names:
            return names[node.id]
        if node.id in CONSTANTS:
            return CONSTANTS[node.id]
        raise Refused(f"unknown name {node.id!r}")
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = build(node.operand, names)
        return -inner if isinstance(node.op, ast.USub) else inner
    if isinstance(node, ast.BinOp):
        left, right = build(node.left, names), build(node.right, names)
        if isinstance(node.op, ast.Pow):
            return _power(left, right)
        op = _OPS.get(type(node.op))
        if op is None:
            raise Refused(f"operator {type(node.op).__name__} is not allowed")
        return op(left, right)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FUNCTIONS:
        if node.keywords or len(node.args) != 1:
            raise Refused(f"{node.func.id} takes one argument")
        return FUNCTIONS[node.func.id](build(node.args[0], names))
    raise Refused(f"{type(node).__name__} is not allowed in an answer")


def expression(text: str, variables: tuple[str, ...] = ("x",)) -> sp.Expr:
    """`text` as a finite SymPy expression in `variables` (Refused otherwise)."""
    return _finite(build(syntax(text), {v: symbol(v) for v in variables}))


def _finite(expr: Any) -> sp.Expr:
    if not isinstance(expr, sp.Expr) or expr.has(*_BAD):
        raise Refused("not a finite expression (division by zero?)")
    return expr


def items(text: str, variables: tuple[str, ...] = ("x",)) -> list[sp.Expr]:
    """A list of expressions: `1, -2, 3/2`, `[1, -2]`, `{1, -2}`, `x = 1, x = -2` (a `name =` before an item is
    dropped)."""
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        raise Refused("not text, or longer than 2,000 characters")
    body = text.strip().replace("{", "[").replace("}", "]").replace(";", ",").replace("\n", ",")
    body = re.sub(r"(?<![=<>!])\b[A-Za-z_]\w*\s*=(?!=)", "", body).strip().strip(",")
    tree = syntax(body)
    elements = tree.elts if isinstance(tree, (ast.List, ast.Tuple)) else [tree]
    names = {v: symbol(v) for v in variables}
    return [_finite(build(e, names)) for e in elements]


def assignments(text: str, unknowns: tuple[str, ...]) -> dict[str, sp.Expr]:
    """`x = 1, y = -2/3` (commas, semicolons or lines between) -> {"x": 1, "y": -2/3}; each unknown exactly once and
    each value a number (no unknown in it)."""
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        raise Refused("not text, or longer than 2,000 characters")
    parts = [p.strip() for p in re.split(r"[,;\n]", text.strip().strip("{}[]()")) if p.strip()]
    out: dict[str, sp.Expr] = {}
    for part in parts:
        name, eq, value = part.partition("=")
        name = name.strip()
        if not eq or name not in unknowns or name in out:
            raise Refused(f"{part[:40]!r} is not `unknown = value` for a new unknown")
        out[name] = expression(value, ())
    if set(out) != set(unknowns):
        raise Refused(f"give every unknown once: {', '.join(unknowns)}")
    return out


def matrix(text: str, size: int) -> list[list[sp.Expr]]:
    """`[[1, 2], [3, 4]]` (or `Matrix([[...]])`) -> rows of numbers, `size` x `size`."""
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        raise Refused("not text, or longer than 2,000 characters")
    body = text.strip()
    if body.startswith("Matrix(") and body.endswith(")"):
        body = body[len("Matrix("):-1]
    tree = syntax(body)
    if not isinstance(tree, (ast.List, ast.Tuple)) or len(tree.elts) != size:
        raise Refused(f"a list of {size} rows")
    rows = []
    for row in tree.elts:
        if not isinstance(row, (ast.List, ast.Tuple)) or len(row.elts) != size:
            raise Refused(f"each row a list of {size} numbers")
        rows.append([_finite(build(e, {})) for e in row.elts])
    return rows


def vectors(text: str, length: int, most: int) -> list[list[sp.Expr]]:
    """`[[1, -2, 1], [0, 1, 3/2]]` (or one vector `[1, -2, 1]`) -> at most `most` vectors of `length` numbers."""
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        raise Refused("not text, or longer than 2,000 characters")
    tree = syntax(text.strip())
    if not isinstance(tree, (ast.List, ast.Tuple)) or not tree.elts:
        raise Refused("a list of vectors")
    rows = tree.elts if isinstance(tree.elts[0], (ast.List, ast.Tuple)) else [tree]
    if len(rows) > most:
        raise Refused(f"more than {most} vectors")
    out = []
    for row in rows:
        if not isinstance(row, (ast.List, ast.Tuple)) or len(row.elts) != length:
            raise Refused(f"each vector a list of {length} numbers")
        out.append([_finite(build(e, {})) for e in row.elts])
    return out


def products(text: str, variables: tuple[str, ...] = ("x",)) -> list[tuple[sp.Expr, int]]:
    """The factors of a product as written: `-2*(x + 1)**2*(x**2 + 3)` -> [(-1, 1), (2, 1), (x + 1, 2),
    (x**2 + 3, 1)]; a factor's exponent must be a whole number 1..100."""
    names = {v: symbol(v) for v in variables}
    out: list[tuple[sp.Expr, int]] = []

    def walk(node: ast.expr, times: int) -> None:
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
            walk(node.left, times)
            walk(node.right, times)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            out.append((sp.Integer(-1), 1))
            walk(node.operand, times)
        elif (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow) and isinstance(node.right, ast.Constant)
              and type(node.right.value) is int and 1 <= node.right.value <= MAX_EXPONENT):
            walk(node.left, times * node.right.value)
        else:
            if times > MAX_EXPONENT:
                raise Refused("exponent over 100")
            out.append((_finite(build(node, names)), times))

    walk(syntax(text), 1)
    return out
