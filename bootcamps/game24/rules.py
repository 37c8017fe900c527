"""The 24-game rule, shared by the verifier and the generator: every given number exactly once, only + - × ÷
and parentheses, and the exact value equals the target."""
from __future__ import annotations

import re
from collections import Counter

from bc_common.errors import UnsafeExpressionError
from bc_common.safe_eval import normalise, safe_eval

OPERATORS = frozenset({"+", "-", "*", "/"})
MAX_LENGTH = 400  # a real answer is a few dozen characters
_ALLOWED = re.compile(r"[0-9+\-*/() ]+")  # ASCII digits only: no floats, exponents, hex or fullwidth digits
_LITERAL = re.compile(r"[0-9]+")


def check_expression(expression: str, numbers: list[int], target: int) -> str | None:
    """None when `expression` solves the puzzle, else the reason it does not (for tools and tests)."""
    if not isinstance(expression, str):
        return "the answer is not text"
    if len(expression) > MAX_LENGTH:
        return f"the expression is longer than {MAX_LENGTH} characters"
    text = normalise(expression).replace("\t", " ").replace("\n", " ").strip()
    left, *rights = text.split("=")  # "expr = 24" is fine when every right-hand side is the target
    if any(r.strip() != str(target) for r in rights):
        return f"the expression must equal {target}"
    text = left.strip()
    if not _ALLOWED.fullmatch(text):
        return "only whole numbers, + - * / and parentheses are allowed"
    literals = [int(x) for x in _LITERAL.findall(text)]
    if Counter(literals) != Counter(numbers):
        return f"the expression must use each of {numbers} exactly once (it uses {sorted(literals)})"
    try:
        value = safe_eval(text, operators=OPERATORS, signs=False)
    except ZeroDivisionError:
        return "the expression divides by zero"
    except UnsafeExpressionError as exc:
        return f"not a valid expression: {exc}"
    if value != target:
        return f"the expression equals {value}, not {target}"
    return None
