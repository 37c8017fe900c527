"""fl/sat_backbone: the backbone of a satisfiable CNF formula, the literals true in every model (unique; every
assignment is evaluated at once on bit sets of all 2^n assignments)."""
from __future__ import annotations

import functools
import random
import re
from typing import Any

from ..core import Knob, Task, clause_text, majority, numbers, satisfied

_NEGATED = re.compile(r"(?:\bNOT\b|~|¬|-)\s*x?\s*(\d+)", re.IGNORECASE)


@functools.cache
def columns(n: int) -> tuple[int, ...]:
    """Bit sets over the 2^n assignments (bit k is the assignment whose variable v is bit v-1 of k): the one of
    variable v is `columns(n)[v]` (index 0 is every assignment)."""
    full = (1 << (1 << n)) - 1
    out = [full]
    for v in range(1, n + 1):
        half = 1 << (v - 1)
        period = half * 2
        repeat = ((1 << (1 << n)) - 1) // ((1 << period) - 1)  # a 1 at the start of every period
        out.append((((1 << half) - 1) << half) * repeat)
    return tuple(out)


def models(n: int, clauses: list[list[int]]) -> int:
    """The bit set of the assignments that satisfy every clause."""
    col = columns(n)
    full, sat = col[0], col[0]
    for clause in clauses:
        ok = 0
        for lit in clause:
            ok |= col[lit] if lit > 0 else full & ~col[-lit]
        sat &= ok
    return sat


def backbone(n: int, clauses: list[list[int]]) -> list[int] | None:
    """The literals true in every model (DIMACS, sorted by variable); None when the formula is unsatisfiable."""
    sat, col = models(n, clauses), columns(n)
    if not sat:
        return None
    return [v if not sat & ~col[v] else -v for v in range(1, n + 1) if not sat & ~col[v] or not sat & col[v]]


class SatBackbone(Task):
    name = "sat_backbone"
    title = "Backbone of a CNF formula"
    knobs = {"variables": Knob(12, 5, 16, "variables x1..xn (every assignment is evaluated)"),
             "density": Knob(38, 20, 44, "clauses per ten variables"),
             "min_backbone": Knob(3, 1, 10, "literals in the backbone, at least (and two variables outside it)")}
    groups = {"easy": {"variables": 10, "density": 36, "min_backbone": 3},
              "medium": {"variables": 12, "density": 38, "min_backbone": 4},
              "hard": {"variables": 14, "density": 40, "min_backbone": 5}}
    answer_format = ("the literals true in every satisfying assignment, e.g. <answer>x2 NOT x5 x7</answer> (or "
                     "<answer>2 -5 7</answer>; <answer>none</answer> when there is none).")
    baselines = {"one_model": "every literal of one satisfying assignment",
                 "majority": "each variable the way it appears more often", "none": "no literal"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        n = p.variables
        planted = {v for v in range(1, n + 1) if rng.random() < 0.5}
        clauses: list[list[int]] = []
        seen: set[tuple[int, ...]] = set()
        while len(clauses) < n * p.density // 10:
            clause = [v * rng.choice((1, -1)) for v in rng.sample(range(1, n + 1), 3)]
            key = tuple(sorted(clause))
            if satisfied(clause, planted) and key not in seen:
                seen.add(key)
                clauses.append(clause)
        bone = backbone(n, clauses)
        if bone is None or not p.min_backbone <= len(bone) <= n - 2:
            return None
        inst = {"variables": n, "clauses": clauses, "model": sorted(planted), "solution": bone}
        return None if self.any_baseline_accepted(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(clause_text(c) for c in inst["clauses"])
        return (f"Variables x1..x{inst['variables']} are each TRUE or FALSE. This CNF formula is satisfiable:\n{rows}"
                "\n\nWhich literals are true in every assignment that satisfies it (its backbone)? Name each such "
                "variable once: xN if it is TRUE in all of them, NOT xN if it is FALSE in all of them.")

    def show(self, answer: list[int]) -> str:
        return " ".join(f"x{lit}" if lit > 0 else f"NOT x{-lit}" for lit in answer) or "none"

    def read(self, body: str) -> list[int] | None:
        return numbers(_NEGATED.sub(r" -\1", body).replace("x", " ").replace("X", " "))

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        n = inst["variables"]
        if not all(1 <= abs(lit) <= n for lit in answer) or len({abs(lit) for lit in answer}) < len(answer):
            return f"each variable x1..x{n} at most once"
        bone = set(backbone(n, inst["clauses"]) or [])
        missing, extra = sorted(bone - set(answer), key=abs), sorted(set(answer) - bone, key=abs)
        if extra:
            lit = extra[0]
            return f"{'x' if lit > 0 else 'NOT x'}{abs(lit)} is false in some satisfying assignment"
        if missing:
            return f"{len(missing)} backbone literals missing"
        return None

    def corrupt(self, inst: dict[str, Any], answer: list[int], rng: random.Random) -> list[int]:
        if rng.random() < 0.5:  # one backbone literal left out, or one variable outside it added
            drop = rng.choice(answer)
            return [lit for lit in answer if lit != drop]
        outside = [v for v in range(1, inst["variables"] + 1) if v not in {abs(lit) for lit in answer}]
        v = rng.choice(outside)
        return sorted([*answer, v if v in inst["model"] else -v], key=abs)

    def baseline_one_model(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return [v if v in inst["model"] else -v for v in range(1, inst["variables"] + 1)]

    def baseline_majority(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        true = set(majority(inst["variables"], inst["clauses"]))
        return [v if v in true else -v for v in range(1, inst["variables"] + 1)]

    def baseline_none(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return []
