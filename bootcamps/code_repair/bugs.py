"""Seed one bug into a reference implementation: an AST mutation (off-by-one, wrong operator, swapped branch,
wrong initial value, missing case, flipped condition) that breaks the function on some inputs.

    bugs = candidate_bugs(source)                 # every site, by kind
    buggy = apply_bug(source, bugs[3])            # the source with that one bug
    outcomes = run_guarded(buggy, entry, inputs)  # in process, a line budget instead of a clock (deterministic)

The buggy code is our own reference with one node changed (never model text); it still runs under a line budget,
because an off-by-one can turn a loop into an endless one.
"""
from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from typing import Any

import orjson

from bc_common.function_runner import normalised

KINDS = ("off_by_one", "wrong_operator", "swapped_branch", "wrong_initial_value", "missing_case",
         "flipped_condition")
SWAPS: dict[type, type] = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Add, ast.FloorDiv: ast.Mod,
                           ast.Mod: ast.FloorDiv, ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE,
                           ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.And: ast.Or, ast.Or: ast.And}
LINE_BUDGET = 1_000_000  # lines one input may run before the function counts as stuck


@dataclass(frozen=True)
class Bug:
    """One mutation: its kind and the index of its site among the sites of that kind (in `ast.walk` order)."""

    kind: str
    site: int


@dataclass(frozen=True)
class Outcome:
    """What one call did: whether it returned, its value, and how many lines it ran."""

    answered: bool
    value: Any
    lines: int


class Stuck(Exception):
    """The buggy function ran past its line budget."""


def _function(tree: ast.Module) -> ast.FunctionDef:
    node = tree.body[0]
    assert isinstance(node, ast.FunctionDef)
    return node


def _sites(tree: ast.Module, kind: str) -> list[ast.AST]:
    """The nodes of the function's body a bug of `kind` may change (defaults and the signature stay)."""
    body = [n for stmt in _function(tree).body for n in ast.walk(stmt)]
    if kind == "off_by_one":
        return [n for n in body if isinstance(n, ast.Constant) and type(n.value) is int]
    if kind == "wrong_operator":
        return [n for n in body if isinstance(n, (ast.BinOp, ast.AugAssign)) and type(n.op) in SWAPS
                or isinstance(n, ast.Compare) and len(n.ops) == 1 and type(n.ops[0]) in SWAPS
                or isinstance(n, ast.BoolOp) and type(n.op) in SWAPS]
    if kind == "swapped_branch":
        return [n for n in body if isinstance(n, (ast.If, ast.IfExp)) and (not isinstance(n, ast.If) or n.orelse)]
    if kind == "wrong_initial_value":
        return [n for n in body if isinstance(n, ast.Assign) and len(n.targets) == 1
                and isinstance(n.targets[0], ast.Name) and isinstance(n.value, (ast.Constant, ast.List))]
    if kind == "missing_case":
        return [n for n in body if isinstance(n, ast.If) and not n.orelse]
    if kind == "flipped_condition":
        return [n for n in body if isinstance(n, (ast.If, ast.While, ast.IfExp))]
    raise ValueError(f"unknown bug kind {kind!r}")


def candidate_bugs(source: str) -> list[Bug]:
    """Every bug the source can carry, kind by kind."""
    tree = ast.parse(source)
    return [Bug(kind, k) for kind in KINDS for k in range(len(_sites(tree, kind)))]


def apply_bug(source: str, bug: Bug) -> str:
    """The source with `bug` seeded (formatted by `ast.unparse`, like the correct source it is compared with)."""
    tree = ast.parse(source)
    node = _sites(tree, bug.kind)[bug.site]
    if bug.kind == "off_by_one":
        node.value += 1 if node.value <= 0 or node.value % 2 else -1
    elif bug.kind == "wrong_operator":
        if isinstance(node, ast.Compare):
            node.ops = [SWAPS[type(node.ops[0])]()]
        else:
            node.op = SWAPS[type(node.op)]()
    elif bug.kind == "swapped_branch":
        node.body, node.orelse = node.orelse, node.body
    elif bug.kind == "wrong_initial_value":
        value = node.value
        if isinstance(value, ast.List):
            node.value = ast.List(elts=[*value.elts, ast.Constant(0)] if not value.elts else value.elts[1:],
                                  ctx=ast.Load())
        elif isinstance(value.value, bool) or value.value is None:
            node.value = ast.Constant(0 if value.value is None else not value.value)
        elif isinstance(value.value, (int, float)):
            node.value = ast.Constant(1 if value.value == 0 else 0)
        else:
            node.value = ast.Constant(str(value.value) + " " if isinstance(value.value, str) else None)
    elif bug.kind == "missing_case":
        node.test = ast.Constant(False)
    elif bug.kind == "flipped_condition":
        node.test = ast.UnaryOp(op=ast.Not(), operand=node.test)
    tree = ast.parse(ast.unparse(tree))  # drop a now-dead `if False:` so the bug is not pointed at
    return ast.unparse(_drop_dead(tree)) + "\n"


def _drop_dead(tree: ast.Module) -> ast.Module:
    class Dead(ast.NodeTransformer):
        def visit_If(self, node: ast.If) -> Any:
            self.generic_visit(node)
            if isinstance(node.test, ast.Constant) and node.test.value is False and not node.orelse:
                return None
            return node

    fixed = ast.fix_missing_locations(Dead().visit(tree))
    for node in ast.walk(fixed):  # a block left empty gets `pass`
        for name in ("body", "orelse"):
            if name == "body" and isinstance(getattr(node, name, None), list) and not getattr(node, name):
                setattr(node, name, [ast.Pass()])
    return fixed


def run_guarded(source: str, entry: str, inputs: list[list[Any]],
                budgets: list[int] | None = None) -> list[Outcome]:
    """One Outcome per input: the value after a JSON round trip, or unanswered for an exception, a value JSON
    cannot carry, or a run past its line budget (`budgets[i]`, default `LINE_BUDGET`)."""
    scope: dict[str, Any] = {"__name__": "buggy"}
    exec(compile(source, "buggy.py", "exec"), scope)  # noqa: S102  (our reference with one mutation, not model text)
    function = scope[entry]
    limits = budgets if budgets is not None else [LINE_BUDGET] * len(inputs)
    return [_traced_call(function, args, budget) for args, budget in zip(inputs, limits, strict=True)]


def _traced_call(function: Any, args: list[Any], budget: int) -> Outcome:
    count = 0

    def tracer(frame: Any, event: str, arg: Any) -> Any:
        nonlocal count
        if frame.f_code.co_filename == "buggy.py":
            count += 1
            if count > budget:
                raise Stuck
        return tracer

    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        value = function(*orjson.loads(orjson.dumps(args)))
        return Outcome(True, normalised(value), count)
    except Exception:  # noqa: BLE001  (any way the buggy function fails, Stuck included)
        return Outcome(False, None, count)
    finally:
        sys.settrace(previous)
