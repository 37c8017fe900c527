"""An expression as the calculator's steps: the binary operations whose operands are both known, turn by turn.

The calculator does at most `max_operations` operations a call, so a policy that uses it must break the expression
up; the reference does one operation a call, every ready operation of a turn in parallel.
"""
from __future__ import annotations

import ast

from bc_common.safe_eval import normalise

_SYMBOL = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}


def operations(expression: str) -> list[ast.BinOp]:
    """The binary operations of `expression`, children before parents (the order they can be computed in)."""
    tree = ast.parse(normalise(expression).strip(), mode="eval")
    out: list[ast.BinOp] = []

    def walk(node: ast.AST) -> None:
        if isinstance(node, ast.BinOp):
            walk(node.left)
            walk(node.right)
            out.append(node)
        elif isinstance(node, ast.UnaryOp):
            walk(node.operand)

    walk(tree.body)
    return out


def operand(node: ast.AST, known: dict[int, str]) -> str | None:
    """The text of an operand: a number, a signed number, or the known result of an operation (None if not yet)."""
    if isinstance(node, ast.Constant):
        return repr(node.value) if isinstance(node.value, float) else str(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = operand(node.operand, known)
        return None if inner is None else f"-({inner})" if inner.startswith("-") else f"-{inner}"
    return known.get(id(node))


def step_text(node: ast.BinOp, known: dict[int, str]) -> str | None:
    """`a op b` for an operation whose operands are known, else None; negative operands in parentheses."""
    left, right = operand(node.left, known), operand(node.right, known)
    if left is None or right is None:
        return None
    wrap = [f"({v})" if v.startswith("-") else v for v in (left, right)]
    return f"{wrap[0]} {_SYMBOL[type(node.op)]} {wrap[1]}"
