"""What every fl/<task> shares: the `Task` base class (draw an instance, verify any answer against the instance and
its stored optimum, render the prompt), its integer knobs, and the answer parsers.

A task module defines one `Task` subclass in about a hundred lines; `collection.py` turns it into a bootcamp
(generator, verifier, reference policy, noisy answers, baselines) with nothing of its own.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any, ClassVar

from bc_common.answer_blocks import last_tagged

MAX_BODY = 4000  # characters of an answer block: every instance's answer fits in far fewer
MAX_ITEMS = 400  # numbers in one answer
_INT = re.compile(r"-?[0-9]{1,19}")
_TOKENS = re.compile(r"[\s,;]+")


@dataclass(frozen=True)
class Knob:
    """An integer parameter of a task's generator, with the bounds `validate()` enforces."""

    default: int
    low: int
    high: int
    about: str = ""


class Task:
    """One task type. Subclasses set the class attributes and implement `draw`, `statement`, `check` (and `show`,
    `read`, `corrupt` where the answer is not a list of integers)."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    knobs: ClassVar[dict[str, Knob]] = {}
    groups: ClassVar[dict[str, dict[str, int]]] = {}  # easy / medium / hard: knob values
    answer_format: ClassVar[str] = ""  # what goes between the answer tags, with an example
    baselines: ClassVar[dict[str, str]] = {}  # name -> what it does; `baseline_<name>(inst, rng)` answers
    conformance: ClassVar[dict[str, Any]] = {}  # the manifest's conformance settings
    max_draws: ClassVar[int] = 400  # instances drawn for one row before the generator gives up

    # -- the task's own part -----------------------------------------------------------------------------------
    def validate(self, p: Any) -> None:
        """Cross-knob rules beyond each knob's bounds (ValueError)."""

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        """One instance (JSON-able, with one correct `solution`); None: draw again (degenerate, or a cheap
        heuristic already solves it)."""
        raise NotImplementedError

    def statement(self, inst: dict[str, Any]) -> str:
        """The task and the instance in text (the answer format is added by `prompt`)."""
        raise NotImplementedError

    def solve(self, inst: dict[str, Any]) -> Any:
        """A correct answer (structured): the stored one by default."""
        return inst["solution"]

    def show(self, answer: Any) -> str:
        """The answer block's body for a structured answer."""
        return " ".join(map(str, answer))

    def read(self, body: str) -> Any | None:
        """The structured answer in a block's body; None when malformed."""
        return numbers(body)

    def check(self, inst: dict[str, Any], answer: Any) -> str | None:
        """Why `answer` is wrong for `inst`; None when it is correct."""
        raise NotImplementedError

    def corrupt(self, inst: dict[str, Any], answer: Any, rng: random.Random) -> Any:
        """A wrong answer near the right one (the noisy model's): a list answer loses one entry."""
        wrong = list(answer)
        if wrong:
            del wrong[rng.randrange(len(wrong))]
        return type(answer)(wrong) if isinstance(answer, str) else wrong

    # -- shared ------------------------------------------------------------------------------------------------
    def prompt(self, inst: dict[str, Any]) -> str:
        return (f"{self.statement(inst)}\n\nGive your final answer in one block <answer>...</answer> holding "
                f"{self.answer_format}")

    def verify(self, inst: dict[str, Any], text: str) -> tuple[float, str]:
        """(1.0, "correct") or (0.0, why) for a reply's text: its last answer block, parsed and checked."""
        body = last_tagged(text, max_length=MAX_BODY) if isinstance(text, str) else None
        if body is None:
            return 0.0, "no <answer>...</answer> block (or one over 4,000 characters)"
        answer = self.read(body)
        if answer is None:
            return 0.0, f"malformed answer: {body[:80]!r}"
        why = self.check(inst, answer)
        return (0.0, why) if why else (1.0, "correct")

    def accepts(self, inst: dict[str, Any], answer: Any) -> bool:
        """Whether a structured answer, written out and read back as the verifier reads it, is correct."""
        if answer is None:
            return False
        parsed = self.read(self.show(answer))
        return parsed is not None and self.check(inst, parsed) is None

    def wrong_answer(self, inst: dict[str, Any], rng: random.Random) -> Any:
        """A wrong answer (never scores 1.0): the corrupted solution, or nothing when corrupting kept it right."""
        wrong = self.corrupt(inst, self.solve(inst), rng)
        return None if wrong is None or self.accepts(inst, wrong) else wrong

    def baseline(self, name: str, inst: dict[str, Any], rng: random.Random) -> Any:
        return getattr(self, f"baseline_{name}")(inst, rng)

    def any_baseline_accepted(self, inst: dict[str, Any], rng: random.Random) -> bool:
        """Whether a declared baseline solves `inst` (the generator then draws again)."""
        return any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines)


# -- answer parsers ----------------------------------------------------------------------------------------------
def numbers(body: str, limit: int = MAX_ITEMS) -> list[int] | None:
    """`"3 1 4"`, `"3, 1, 4"`, `"[3, 1, 4]"` -> [3, 1, 4]; `"none"` or an empty body -> []; None unless every
    token is a plain integer."""
    body = body.strip()
    if body[:1] + body[-1:] in ("[]", "()", "{}"):  # one pair of enclosing brackets, as a list is often written
        body = body[1:-1]
    if body.lower() in ("none", "nothing", "-"):
        return []
    tokens = [t for t in _TOKENS.split(body) if t]
    if len(tokens) > limit or not all(_INT.fullmatch(t) for t in tokens):
        return None
    return [int(t) for t in tokens]


def word(body: str, alphabet: str, limit: int = 200) -> str | None:
    """A string over `alphabet` written alone (`" abba "`; `ε`, `""` or `empty` for the empty string); None
    otherwise."""
    text = body.strip().strip("\"'`")
    if text.lower() in ("ε", "epsilon", "empty", "λ"):
        return ""
    if len(text) > limit or any(ch not in alphabet for ch in text):
        return None
    return text


# -- shared instance pieces ---------------------------------------------------------------------------------------
def satisfied(clause: list[int], true: set[int]) -> bool:
    """Whether one clause (DIMACS literals: 3 is x3, -3 is NOT x3) holds when exactly the variables `true` are."""
    return any((lit > 0) == (abs(lit) in true) for lit in clause)


def literal(lit: int) -> str:
    return f"x{lit}" if lit > 0 else f"NOT x{-lit}"


def clause_text(clause: list[int]) -> str:
    return "(" + " OR ".join(literal(lit) for lit in clause) + ")"


def majority(n: int, clauses: list[list[int]]) -> list[int]:
    """Each variable set the way it appears more often (true on a tie): the first heuristic a solver tries."""
    score = [0] * (n + 1)
    for clause in clauses:
        for lit in clause:
            score[abs(lit)] += 1 if lit > 0 else -1
    return [v for v in range(1, n + 1) if score[v] >= 0]


def distinct_variables(answer: list[int], n: int) -> str | None:
    if len(set(answer)) < len(answer) or not all(1 <= v <= n for v in answer):
        return f"variable numbers must be distinct, from 1 to {n}"
    return None
