"""fl/lambda_normal_form: the beta normal form of a lambda term (any alpha-equivalent writing scores; compared on
de Bruijn indices)."""
from __future__ import annotations

import random
import re
from typing import Any

from ..core import Knob, Task

# de Bruijn terms: ("v", index) bound variable, ("f", name) free variable, ("l", body), ("a", function, argument)
Term = tuple[Any, ...]
COMBINATORS = {  # closed terms the generator composes (de Bruijn)
    "I": ("l", ("v", 0)),
    "K": ("l", ("l", ("v", 1))),
    "KI": ("l", ("l", ("v", 0))),
    "S": ("l", ("l", ("l", ("a", ("a", ("v", 2), ("v", 0)), ("a", ("v", 1), ("v", 0)))))),
    "B": ("l", ("l", ("l", ("a", ("v", 2), ("a", ("v", 1), ("v", 0)))))),
    "C": ("l", ("l", ("l", ("a", ("a", ("v", 2), ("v", 0)), ("v", 1))))),
    "W": ("l", ("l", ("a", ("a", ("v", 1), ("v", 0)), ("v", 0)))),
    "T": ("l", ("l", ("a", ("v", 0), ("v", 1)))),
    "TWO": ("l", ("l", ("a", ("v", 1), ("a", ("v", 1), ("v", 0))))),
}
FREE = ("p", "q", "r", "s")
BINDERS = "xyzuvwtmnk"
MAX_DEPTH = 60  # nesting of an answer's term
_TOKEN = re.compile(r"\s*(\\|λ|\.|\(|\)|[a-z][a-z0-9_']{0,5})")


def shift(t: Term, by: int, cutoff: int = 0) -> Term:
    if t[0] == "v":
        return ("v", t[1] + by) if t[1] >= cutoff else t
    if t[0] == "f":
        return t
    if t[0] == "l":
        return ("l", shift(t[1], by, cutoff + 1))
    return ("a", shift(t[1], by, cutoff), shift(t[2], by, cutoff))


def subst(t: Term, j: int, s: Term) -> Term:
    if t[0] == "v":
        return s if t[1] == j else t
    if t[0] == "f":
        return t
    if t[0] == "l":
        return ("l", subst(t[1], j + 1, shift(s, 1)))
    return ("a", subst(t[1], j, s), subst(t[2], j, s))


def step(t: Term) -> Term | None:
    """One normal-order (leftmost outermost) beta step, or None in normal form."""
    if t[0] == "a":
        if t[1][0] == "l":
            return shift(subst(t[1][1], 0, shift(t[2], 1)), -1)
        left = step(t[1])
        if left is not None:
            return ("a", left, t[2])
        right = step(t[2])
        return None if right is None else ("a", t[1], right)
    if t[0] == "l":
        body = step(t[1])
        return None if body is None else ("l", body)
    return None


def size(t: Term) -> int:
    return 1 if t[0] in "vf" else 1 + size(t[1]) if t[0] == "l" else 1 + size(t[1]) + size(t[2])


def normalize(t: Term, steps: int, largest: int) -> tuple[Term, int] | None:
    """(normal form, beta steps taken), or None past `steps` steps or `largest` nodes."""
    for k in range(steps + 1):
        nxt = step(t)
        if nxt is None:
            return t, k
        if size(nxt) > largest:
            return None
        t = nxt
    return None


def binder(depth: int) -> str:
    return BINDERS[depth] if depth < len(BINDERS) else f"x{depth}"


def text(t: Term, depth: int = 0) -> str:
    """Named form: binders named by depth (x, y, z, ...), application left-associative, bodies extend right."""
    if t[0] == "v":
        return binder(depth - 1 - t[1])
    if t[0] == "f":
        return t[1]
    if t[0] == "l":
        return f"\\{binder(depth)}. {text(t[1], depth + 1)}"
    left = text(t[1], depth)
    if t[1][0] == "l":
        left = f"({left})"
    right = text(t[2], depth)
    if t[2][0] in "la":
        right = f"({right})"
    return f"{left} {right}"


def parse(body: str) -> Term | None:
    """A term in `\\x. x y` (or `λx.x y`) syntax to de Bruijn form; None when malformed. Several binders may share
    one lambda: `\\x y. x`."""
    tokens, pos = [], 0
    body = body.strip()
    while pos < len(body):
        found = _TOKEN.match(body, pos)
        if not found:
            if body[pos:].strip() == "":
                break
            return None
        tokens.append(found[1])
        pos = found.end()
    i = 0

    def expression(scope: list[str], depth: int) -> Term:
        nonlocal i
        if depth > MAX_DEPTH:
            raise ValueError("too deep")
        if tokens[i] in ("\\", "λ"):
            i += 1
            names = []
            while tokens[i] != ".":
                if not tokens[i][0].isalpha():
                    raise ValueError("binder")
                names.append(tokens[i])
                i += 1
            i += 1
            if not names:
                raise ValueError("no binder")
            out = expression([*scope, *names], depth + 1)
            for _ in names:
                out = ("l", out)
            return out
        out = atom(scope, depth)
        while i < len(tokens) and tokens[i] not in (")",):
            if tokens[i] in ("\\", "λ"):
                out = ("a", out, expression(scope, depth + 1))
                break
            out = ("a", out, atom(scope, depth))
        return out

    def atom(scope: list[str], depth: int) -> Term:
        nonlocal i
        tok = tokens[i]
        i += 1
        if tok == "(":
            inner = expression(scope, depth + 1)
            if tokens[i] != ")":
                raise ValueError("unclosed")
            i += 1
            return inner
        if tok[0].isalpha():
            for k in range(len(scope) - 1, -1, -1):
                if scope[k] == tok:
                    return ("v", len(scope) - 1 - k)
            return ("f", tok)
        raise ValueError(tok)

    try:
        term = expression([], 0)
    except (IndexError, ValueError):
        return None
    return term if i == len(tokens) else None


def random_term(rng: random.Random, depth: int) -> Term:
    """An application of combinators and free variables, nested `depth` levels."""
    if depth == 0 or rng.random() < 0.2:
        return ("f", rng.choice(FREE)) if rng.random() < 0.5 else COMBINATORS[rng.choice(sorted(COMBINATORS))]
    head = COMBINATORS[rng.choice(sorted(COMBINATORS))]
    out = head
    for _ in range(rng.randint(1, 3)):
        out = ("a", out, random_term(rng, depth - 1))
    return out


def as_tuple(data: Any) -> Term:
    return tuple(as_tuple(x) if isinstance(x, list) else x for x in data)


class LambdaNormalForm(Task):
    name = "lambda_normal_form"
    title = "Lambda calculus normal form"
    knobs = {"depth": Knob(3, 1, 5, "nesting of the term's applications"),
             "min_steps": Knob(4, 1, 30, "beta steps to the normal form, at least")}
    groups = {"easy": {"depth": 2, "min_steps": 3}, "medium": {"depth": 3, "min_steps": 6},
              "hard": {"depth": 3, "min_steps": 10}}
    answer_format = ("the normal form, written with \\ (or λ) for lambda, e.g. <answer>\\x. \\y. p (x y)</answer>.")
    baselines = {"copy": "the term unchanged", "one_step": "the term after one beta step",
                 "head_only": "the term after reducing only until its head is not a redex"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        term = random_term(rng, p.depth)
        done = normalize(term, 200, 120)
        if done is None or done[1] < p.min_steps or size(done[0]) < 4 or size(done[0]) > 40:
            return None
        inst = {"term": text(term), "tree": term, "steps": done[1], "solution": text(done[0])}
        return None if self.any_baseline_accepted(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        return ("In the untyped lambda calculus (\\x. M is an abstraction, application is left-associative and "
                "binds tighter than abstraction, a body extends as far right as possible; p, q, r, s are free "
                f"variables), reduce this term to its beta normal form:\n\n{inst['term']}\n\nThe term has one.")

    def show(self, answer: str) -> str:
        return answer

    def read(self, body: str) -> Term | None:
        return parse(body)

    def check(self, inst: dict[str, Any], answer: Term) -> str | None:
        return None if answer == parse(inst["solution"]) else "not the normal form (up to renaming bound variables)"

    def solve(self, inst: dict[str, Any]) -> str:
        return inst["solution"]

    def corrupt(self, inst: dict[str, Any], answer: str, rng: random.Random) -> str:
        free = [n for n in FREE if re.search(rf"\b{n}\b", answer)]
        if free:  # one free variable renamed
            old = rng.choice(free)
            return re.sub(rf"\b{old}\b", next(n for n in FREE if n != old), answer, count=1)
        return f"p ({answer})"

    def baseline_copy(self, inst: dict[str, Any], rng: random.Random) -> str:
        return inst["term"]

    def baseline_one_step(self, inst: dict[str, Any], rng: random.Random) -> str:
        term = as_tuple(inst["tree"])
        return text(step(term) or term)

    def baseline_head_only(self, inst: dict[str, Any], rng: random.Random) -> str:
        term = as_tuple(inst["tree"])
        while term[0] == "a" and term[1][0] == "l":
            term = step(term) or term
        return text(term)
