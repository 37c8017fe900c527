"""What every sy/<task> shares: the `Task` base class (draw an instance with SymPy, render the prompt, read a reply
with the safe parser, check any answer against the instance), its integer knobs, and small random helpers.

A task module defines one `Task` subclass in about a hundred lines; `collection.py` turns it into a bootcamp
(generator, verifier, reference policy, noisy answers, baselines) with nothing of its own. Answers travel as text:
the stored answer is SymPy's `str` of a correct one, read back by the same parser as the model's.
"""
from __future__ import annotations

import functools
import random
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, ClassVar

import orjson
import sympy as sp

from bc_common.answer_blocks import last_tagged

from . import parse
from .numeric import Unevaluable

MAX_BODY = 2000  # characters of an answer block
VERDICTS = 20000  # (instance, answer) verdicts kept per process


@dataclass(frozen=True)
class Knob:
    """An integer parameter of a task's generator, with the bounds `validate()` enforces."""

    default: int
    low: int
    high: int
    about: str = ""


class Task:
    """One task type. Subclasses set the class attributes and implement `draw`, `statement` and `check`; `read`
    parses one expression in `variables` by default."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    knobs: ClassVar[dict[str, Knob]] = {}
    groups: ClassVar[dict[str, dict[str, int]]] = {}  # easy / medium / hard: knob values
    answer_format: ClassVar[str] = ""
    variables: ClassVar[tuple[str, ...]] = ("x",)
    baselines: ClassVar[dict[str, str]] = {}  # name -> what it does; `baseline_<name>(inst, rng)` answers (text)

    # -- the task's own part -----------------------------------------------------------------------------------
    def validate(self, p: Any) -> None:
        """Cross-knob rules beyond each knob's bounds (ValueError)."""

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        """One instance (JSON-able; `answer` holds a correct answer's text); None: draw again."""
        raise NotImplementedError

    def statement(self, inst: dict[str, Any]) -> str:
        raise NotImplementedError

    def read(self, body: str) -> Any:
        """The answer in a block's body (parse.Refused when malformed)."""
        return parse.expression(body, self.variables)

    def check(self, inst: dict[str, Any], answer: Any, body: str) -> str | None:
        """Why `answer` (read from `body`) is wrong for `inst`; None when it is correct."""
        raise NotImplementedError

    def corrupt(self, inst: dict[str, Any], rng: random.Random) -> str:
        """A near miss (the noisy model's wrong answer): the stored answer plus one, by default."""
        return f"{inst['answer']} + 1"

    # -- shared ------------------------------------------------------------------------------------------------
    def prompt(self, inst: dict[str, Any]) -> str:
        return (f"{self.statement(inst)}\n\nWrite exact values in Python/SymPy syntax (`*` for every product, "
                f"`**` or `^` for powers; sqrt, exp, log, sin, cos, ..., pi, E and I are known; no decimals "
                f"where the value is not a terminating decimal). Give your final answer in one block "
                f"<answer>...</answer> holding {self.answer_format}")

    def verify(self, inst: dict[str, Any], text: str) -> tuple[float, str]:
        """(1.0, "correct") or (0.0, why) for a reply: its last answer block, parsed safely and checked."""
        body = last_tagged(text, max_length=MAX_BODY) if isinstance(text, str) else None
        if body is None:
            return 0.0, "no <answer>...</answer> block (or one over 2,000 characters)"
        # a verdict is a function of (instance, answer text) alone (sample points are keyed by the text): the same
        # answer to the same instance (a baseline screened by the generator and played again, a policy's repeated
        # reply) is checked once
        try:
            key = (self.name, orjson.dumps({k: v for k, v in inst.items() if k != "task"},
                                           option=orjson.OPT_SORT_KEYS), body)
        except (TypeError, AttributeError):  # not a JSON identity: checked, not kept
            return self._verify_body(inst, body)
        verdict = _VERDICTS.get(key)
        if verdict is None:
            verdict = _VERDICTS[key] = self._verify_body(inst, body)
            if len(_VERDICTS) > VERDICTS:
                _VERDICTS.popitem(last=False)
        return verdict

    def _verify_body(self, inst: dict[str, Any], body: str) -> tuple[float, str]:
        try:
            why = self.check(inst, self.read(body), body)
        except (parse.Refused, Unevaluable, sp.PolynomialError, sp.CoercionFailed, ValueError, TypeError,
                ZeroDivisionError, ArithmeticError, RecursionError) as exc:
            return 0.0, f"refused: {type(exc).__name__}: {str(exc)[:80]}"
        return (0.0, why) if why else (1.0, "correct")

    def accepts(self, inst: dict[str, Any], body: str) -> bool:
        return self.verify(inst, f"<answer>{body}</answer>")[0] == 1.0

    def wrong_answer(self, inst: dict[str, Any], rng: random.Random) -> str | None:
        wrong = self.corrupt(inst, rng)
        return None if self.accepts(inst, wrong) else wrong

    def baseline(self, name: str, inst: dict[str, Any], rng: random.Random) -> str:
        return getattr(self, f"baseline_{name}")(inst, rng)

    def cheap(self, inst: dict[str, Any], rng: random.Random) -> bool:
        """Whether a declared baseline solves the instance (draw refuses such instances)."""
        return any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines)


_VERDICTS: OrderedDict[tuple[str, bytes, str], tuple[float, str]] = OrderedDict()


# -- helpers -----------------------------------------------------------------------------------------------------
X = parse.symbol("x")


@functools.lru_cache(maxsize=4096)
def stored(text: str, variables: tuple[str, ...] = ("x",)) -> sp.Expr:
    """A stored expression of an identity, read back with the safe parser (identities travel as JSON)."""
    return parse.expression(text, variables)


def text(expr: Any) -> str:
    """SymPy's `str`, which the parser reads back."""
    return str(expr)


def nonzero(rng: random.Random, low: int, high: int) -> int:
    while True:
        v = rng.randint(low, high)
        if v:
            return v


def poly_degree(expr: sp.Expr, var: sp.Symbol) -> int | None:
    """An upper bound on the degree of `expr` as a polynomial in `var` without expanding it; None when it is not
    a polynomial expression (a symbol in a denominator, a function, a symbolic exponent)."""
    if not expr.has(var):
        return 0
    if expr == var:
        return 1
    if expr.is_Add:
        parts = [poly_degree(a, var) for a in expr.args]
        return None if None in parts else max(parts)  # type: ignore[type-var]
    if expr.is_Mul:
        parts = [poly_degree(a, var) for a in expr.args]
        return None if None in parts else sum(parts)  # type: ignore[arg-type]
    if expr.is_Pow and expr.exp.is_Integer and expr.exp >= 0:
        inner = poly_degree(expr.base, var)
        return None if inner is None else inner * int(expr.exp)
    return None


def polynomial(expr: sp.Expr, var: sp.Symbol, max_degree: int) -> sp.Poly:
    """`expr` as a Poly in `var` over QQ, refused (parse.Refused) unless its degree bound is at most `max_degree`
    (checked before anything is expanded)."""
    bound = poly_degree(expr, var)
    if bound is None or bound > max_degree:
        raise parse.Refused(f"not a polynomial in {var} of degree <= {max_degree}")
    poly = sp.Poly(expr, var)
    if poly.domain not in (sp.ZZ, sp.QQ):
        raise parse.Refused("coefficients must be rational numbers")
    return poly
