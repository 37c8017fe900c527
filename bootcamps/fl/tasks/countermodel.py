"""fl/countermodel: premises that do not entail a conclusion; an assignment making every premise true and the
conclusion false (any such countermodel scores)."""
from __future__ import annotations

import functools
import random
from typing import Any

from ..core import Knob, Task, distinct_variables

Formula = list[Any]  # ["var", i] | ["not", f] | ["and", f, g] | ["or", f, g] | ["imp", f, g] | ["iff", f, g]
MOST_COUNTERMODELS = 1  # more, and a fixed assignment would often be one


def value(f: Formula, true: set[int]) -> bool:
    op = f[0]
    if op == "var":
        return f[1] in true
    if op == "not":
        return not value(f[1], true)
    a, b = value(f[1], true), value(f[2], true)
    return {"and": a and b, "or": a or b, "imp": (not a) or b, "iff": a == b}[op]


def show(f: Formula, top: bool = True) -> str:
    op = f[0]
    if op == "var":
        return f"x{f[1]}"
    if op == "not":
        return f"NOT {show(f[1], False)}"
    word = {"and": "AND", "or": "OR", "imp": "->", "iff": "<->"}[op]
    inner = f"{show(f[1], False)} {word} {show(f[2], False)}"
    return inner if top else f"({inner})"


def random_formula(rng: random.Random, n: int, depth: int) -> Formula:
    if depth == 0 or rng.random() < 0.3:
        leaf = ["var", rng.randint(1, n)]
        return ["not", leaf] if rng.random() < 0.3 else leaf
    op = rng.choice(("and", "or", "imp", "imp", "or", "iff"))
    return [op, random_formula(rng, n, depth - 1), random_formula(rng, n, depth - 1)]


@functools.cache
def variable_table(v: int, n: int) -> int:
    return sum(1 << m for m in range(1 << n) if m >> (v - 1) & 1)


def table(f: Formula, n: int) -> int:
    """The truth table of `f` over all 2^n assignments as one integer: bit m is f's value under assignment m (bit
    v-1 of m is x_v)."""
    op = f[0]
    if op == "var":
        return variable_table(f[1], n)
    full = (1 << (1 << n)) - 1
    if op == "not":
        return full & ~table(f[1], n)
    a, b = table(f[1], n), table(f[2], n)
    return {"and": a & b, "or": a | b, "imp": (full & ~a) | b, "iff": full & ~(a ^ b)}[op]


def as_set(mask: int, n: int) -> set[int]:
    return {v for v in range(1, n + 1) if mask >> (v - 1) & 1}


class Countermodel(Task):
    name = "countermodel"
    title = "Countermodel to a propositional entailment"
    knobs = {"variables": Knob(7, 4, 12, "variables x1..xn"), "premises": Knob(10, 2, 20, "premises, at most"),
             "depth": Knob(2, 1, 4, "nesting of each formula")}
    groups = {"easy": {"variables": 8, "premises": 12, "depth": 2},
              "medium": {"variables": 9, "premises": 14, "depth": 2},
              "hard": {"variables": 10, "premises": 16, "depth": 3}}
    answer_format = ("the numbers of the variables you set TRUE, separated by spaces (every other one is FALSE), "
                     "e.g. <answer>1 4 6</answer> (<answer>none</answer> for none).")
    baselines = {"all_true": "every variable true", "all_false": "every variable false",
                 "premises_only": "the first assignment (in counting order) that makes every premise true"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        n = p.variables
        planted_mask = rng.randrange(1 << n)
        planted = as_set(planted_mask, n)
        conclusion = random_formula(rng, n, p.depth)
        if value(conclusion, planted):
            return None
        models = (1 << (1 << n)) - 1  # assignments every premise so far keeps, as a truth table
        left = models & ~table(conclusion, n)  # countermodels so far
        premises: list[Formula] = []
        while left.bit_count() > MOST_COUNTERMODELS and len(premises) < p.premises:
            f = random_formula(rng, n, p.depth)
            t = table(f, n)
            if t >> planted_mask & 1 and left & t != left:  # true in the planted one, and narrows the rest
                premises.append(f)
                models &= t
                left &= t
        if left.bit_count() > MOST_COUNTERMODELS or models.bit_count() < 2 * left.bit_count():
            return None  # still many countermodels, or the premises alone nearly decide the answer
        inst = {"variables": n, "premises": premises, "conclusion": conclusion, "solution": sorted(planted)}
        return None if self.any_baseline_accepted(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(f"{k}. {show(f)}" for k, f in enumerate(inst["premises"], start=1))
        return (f"Variables x1..x{inst['variables']} are each TRUE or FALSE (-> is implication, <-> equivalence). "
                f"Premises:\n{rows}\nConclusion: {show(inst['conclusion'])}\n\nThe premises do not entail the "
                "conclusion. Give an assignment that makes every premise true and the conclusion false.")

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        bad = distinct_variables(answer, inst["variables"])
        if bad:
            return bad
        true = set(answer)
        broken = [k for k, f in enumerate(inst["premises"], start=1) if not value(f, true)]
        if broken:
            return f"premise {broken[0]} is false"
        return "the conclusion is true" if value(inst["conclusion"], true) else None

    def corrupt(self, inst: dict[str, Any], answer: list[int], rng: random.Random) -> list[int]:
        return sorted(set(answer) ^ {rng.randint(1, inst["variables"])})

    def baseline_all_true(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return list(range(1, inst["variables"] + 1))

    def baseline_all_false(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return []

    def baseline_premises_only(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        n = inst["variables"]
        for m in range(1 << n):
            if all(value(f, as_set(m, n)) for f in inst["premises"]):
                return sorted(as_set(m, n))
        return []
