"""fl/unification: a most general unifier of two first-order terms (any one scores: variants by renaming, and
bindings written in triangular form, are accepted)."""
from __future__ import annotations

import random
import re
from typing import Any

from ..core import Knob, Task

Term = str | tuple  # a variable or constant name, or (functor, argument, ...)
FUNCTORS = {"f": 2, "g": 1, "h": 3, "k": 2}
CONSTANTS = ("a", "b", "c")
VARIABLES = ("X", "Y", "Z", "U", "V", "W", "P", "Q", "R", "S")
_TOKEN = re.compile(r"\s*([A-Za-z][A-Za-z0-9_]{0,7}|[(),=;])")
MAX_NODES = 400
MAX_DEPTH = 40  # nesting of a term in an answer (the instances' terms nest a few levels)


def is_var(t: Term) -> bool:
    return isinstance(t, str) and t[:1].isupper()


def text(t: Term) -> str:
    return t if isinstance(t, str) else f"{t[0]}({', '.join(text(a) for a in t[1:])})"


def substitute(t: Term, s: dict[str, Term]) -> Term:
    if isinstance(t, str):
        return s.get(t, t)
    return (t[0], *(substitute(a, s) for a in t[1:]))


def size(t: Term) -> int:
    return 1 if isinstance(t, str) else 1 + sum(size(a) for a in t[1:])


def variables(t: Term, out: set[str] | None = None) -> set[str]:
    out = set() if out is None else out
    if is_var(t):
        out.add(t)  # type: ignore[arg-type]
    elif isinstance(t, tuple):
        for a in t[1:]:
            variables(a, out)
    return out


def unify(a: Term, b: Term) -> dict[str, Term] | None:
    """A most general unifier in solved form (Robinson with the occurs check), or None."""
    s: dict[str, Term] = {}
    todo = [(a, b)]
    while todo:
        x, y = todo.pop()
        x, y = substitute(x, s), substitute(y, s)
        if x == y:
            continue
        if not is_var(x) and is_var(y):
            x, y = y, x
        if is_var(x):
            if x in variables(y):
                return None
            s = {k: substitute(v, {x: y}) for k, v in s.items()}  # type: ignore[dict-item]
            s[x] = y  # type: ignore[index]
        elif isinstance(x, tuple) and isinstance(y, tuple) and x[0] == y[0] and len(x) == len(y):
            todo.extend(zip(x[1:], y[1:], strict=True))
        else:
            return None
    return s


def match(pattern: list[Term], target: list[Term]) -> bool:
    """Whether one substitution of `pattern`'s variables turns it into `target` (one-way matching)."""
    binding: dict[str, Term] = {}
    todo = list(zip(pattern, target, strict=True))
    while todo:
        p, t = todo.pop()
        if is_var(p):
            if binding.setdefault(p, t) != t:  # type: ignore[arg-type]
                return False
        elif isinstance(p, tuple) and isinstance(t, tuple) and p[0] == t[0] and len(p) == len(t):
            todo.extend(zip(p[1:], t[1:], strict=True))
        elif p != t:
            return False
    return True


def parse_bindings(body: str) -> dict[str, Term] | None:
    """`X = f(a, Y); Z = b` (or one binding a line, or `X -> ...`, `X/...`) -> {X: ('f', 'a', 'Y'), Z: 'b'};
    None when malformed."""
    body = body.replace("->", "=").replace("↦", "=").replace("\n", ";").strip().strip("{}[]")
    if body.lower() in ("", "none", "empty"):
        return {}
    tokens, pos = [], 0
    while pos < len(body):
        found = _TOKEN.match(body, pos)
        if not found:
            if body[pos:].strip() == "":
                break
            return None
        tokens.append(found[1])
        pos = found.end()
    if len(tokens) > 4 * MAX_NODES:
        return None
    out: dict[str, Term] = {}
    i = 0

    def term(depth: int = 0) -> Term:
        nonlocal i
        name = tokens[i]
        i += 1
        if i < len(tokens) and tokens[i] == "(":
            if depth > MAX_DEPTH or not name[:1].islower():
                raise ValueError
            i += 1
            args = [term(depth + 1)]
            while tokens[i] == ",":
                i += 1
                args.append(term(depth + 1))
            if tokens[i] != ")":
                raise ValueError
            i += 1
            return (name, *args)
        return name

    try:
        while i < len(tokens):
            if tokens[i] == ";" or tokens[i] == ",":
                i += 1
                continue
            var = tokens[i]
            if not is_var(var) or tokens[i + 1] != "=" or var in out:
                return None
            i += 2
            out[var] = term()
    except (IndexError, ValueError):
        return None
    return out


def resolved(s: dict[str, Term]) -> dict[str, Term] | None:
    """`s` applied to itself until nothing changes (triangular bindings to solved form); None on a cycle."""
    for _ in range(len(s) + 1):
        nxt = {k: substitute(v, s) for k, v in s.items()}
        if nxt == s:
            return s
        if any(size(v) > MAX_NODES for v in nxt.values()):
            return None
        s = nxt
    return None


def random_term(rng: random.Random, depth: int, leaves: tuple[str, ...]) -> Term:
    if depth == 0 or rng.random() < 0.25:
        return rng.choice(leaves)
    name = rng.choice(sorted(FUNCTORS))
    return (name, *(random_term(rng, depth - 1, leaves) for _ in range(FUNCTORS[name])))


def holes(rng: random.Random, t: Term, names: list[str], share: float) -> Term:
    """`t` with some subterms replaced by variables drawn from `names` (the same name may recur)."""
    if rng.random() < share:
        return rng.choice(names)
    if isinstance(t, str):
        return t
    return (t[0], *(holes(rng, a, names, share) for a in t[1:]))


class Unification(Task):
    name = "unification"
    title = "Most general unifier"
    knobs = {"depth": Knob(3, 2, 6, "depth of the terms"), "variables": Knob(5, 2, 10, "variable names in use")}
    groups = {"easy": {"depth": 2, "variables": 4}, "medium": {"depth": 3, "variables": 6},
              "hard": {"depth": 4, "variables": 8}}
    max_draws = 2000  # about 1 draw in 30 (easy) binds two variables, one to a compound term
    answer_format = ("one binding per variable that the unifier changes, separated by semicolons, e.g. "
                     "<answer>X = f(a, Y); Z = g(Y)</answer>.")
    baselines = {"empty": "no bindings", "ground": "a unifier with every variable left free set to the constant a",
                 "one_pass": "each variable of the first term bound to the subterm at its place in the second"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        names = list(VARIABLES[:p.variables])
        base = random_term(rng, p.depth, CONSTANTS + tuple(names[:2]))
        left, right = holes(rng, base, names, 0.2), holes(rng, base, names, 0.2)
        if left == right or size(left) < 5:
            return None
        mgu = unify(left, right)
        if mgu is None or len(mgu) < 2 or all(isinstance(v, str) for v in mgu.values()):
            return None  # a single binding or only names: short answers many tasks share ("Z = a")
        free = set().union(*(variables(v) for v in mgu.values())) | (variables(left) - set(mgu))
        if not free:
            return None  # a ground unifier is the only one: the `ground` baseline would score
        inst = {"left": text(left), "right": text(right), "terms": [left, right],
                "solution": {k: text(v) for k, v in sorted(mgu.items())}}
        return None if self.any_baseline_accepted(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        return ("Terms are built from function symbols f/2, g/1, h/3, k/2, constants a, b, c (lower case) and "
                "variables (upper case).\n\n"
                f"First term:  {inst['left']}\nSecond term: {inst['right']}\n\nFind a most general unifier: a "
                "substitution of terms for variables that makes the two terms identical and is as general as "
                "possible (every other unifier is an instance of it).")

    def show(self, answer: dict[str, str]) -> str:
        return "; ".join(f"{k} = {v}" for k, v in answer.items()) or "none"

    def read(self, body: str) -> dict[str, Term] | None:
        return parse_bindings(body)

    def check(self, inst: dict[str, Any], answer: dict[str, Term]) -> str | None:
        left, right = (_term(t) for t in inst["terms"])
        s = resolved(answer)
        if s is None:
            return "the bindings are cyclic or too large"
        if substitute(left, s) != substitute(right, s):
            return "the substitution does not make the terms identical"
        mgu = unify(left, right)
        names = sorted(variables(left) | variables(right))
        if not match([substitute(v, s) for v in names], [substitute(v, mgu) for v in names]):  # type: ignore[arg-type]
            return "a unifier, but not a most general one"
        return None

    def corrupt(self, inst: dict[str, Any], answer: dict[str, str], rng: random.Random) -> dict[str, str]:
        wrong = dict(answer)
        del wrong[rng.choice(sorted(wrong))]
        return wrong

    def solve(self, inst: dict[str, Any]) -> dict[str, str]:
        return inst["solution"]

    def baseline_empty(self, inst: dict[str, Any], rng: random.Random) -> dict[str, str]:
        return {}

    def baseline_ground(self, inst: dict[str, Any], rng: random.Random) -> dict[str, str]:
        left, right = (_term(t) for t in inst["terms"])
        mgu = unify(left, right) or {}
        names = sorted(variables(left) | variables(right))
        ground = {v: "a" for v in names}
        return {v: text(substitute(substitute(v, mgu), ground)) for v in names}

    def baseline_one_pass(self, inst: dict[str, Any], rng: random.Random) -> dict[str, str]:
        out: dict[str, str] = {}

        def walk(a: Term, b: Term) -> None:
            if is_var(a):
                out.setdefault(a, text(b))  # type: ignore[arg-type]
            elif isinstance(a, tuple) and isinstance(b, tuple):
                for x, y in zip(a[1:], b[1:], strict=False):
                    walk(x, y)

        walk(*(_term(t) for t in inst["terms"]))
        return out


def _term(data: Any) -> Term:
    """A term from its JSON form (tuples come back as lists)."""
    return data if isinstance(data, str) else tuple(_term(x) for x in data)
