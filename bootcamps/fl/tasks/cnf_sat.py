"""fl/cnf_sat: a satisfying assignment of a 3-CNF formula near the satisfiability threshold (any one scores)."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Task, clause_text, distinct_variables, majority, satisfied


class CnfSat(Task):
    name = "cnf_sat"
    title = "3-SAT"
    knobs = {"variables": Knob(18, 5, 60, "variables x1..xn"),
             "density": Knob(40, 20, 44, "clauses per ten variables (4.3 is the random threshold)")}
    groups = {"easy": {"variables": 12, "density": 38}, "medium": {"variables": 18, "density": 40},
              "hard": {"variables": 26, "density": 42}}
    answer_format = ("the numbers of the variables you set TRUE, separated by spaces (every other one is FALSE), "
                     "e.g. <answer>2 5 7</answer> for x2, x5 and x7 true (<answer>none</answer> for none).")
    baselines = {"all_true": "every variable true", "all_false": "every variable false",
                 "majority": "each variable the way it appears more often"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        n = p.variables
        planted = {v for v in range(1, n + 1) if rng.random() < 0.5}
        clauses: list[list[int]] = []
        seen: set[tuple[int, ...]] = set()
        while len(clauses) < n * p.density // 10:  # clauses the planted assignment satisfies, none repeated
            clause = [v * rng.choice((1, -1)) for v in rng.sample(range(1, n + 1), 3)]
            key = tuple(sorted(clause))
            if satisfied(clause, planted) and key not in seen:
                seen.add(key)
                clauses.append(clause)
        inst = {"variables": n, "clauses": clauses, "solution": sorted(planted)}
        return None if self.any_baseline_accepted(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(clause_text(c) for c in inst["clauses"])
        return (f"Variables x1..x{inst['variables']} are each TRUE or FALSE. Every one of these "
                f"{len(inst['clauses'])} clauses must hold:\n{rows}\n\nFind an assignment that makes every clause "
                "true.")

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        bad = distinct_variables(answer, inst["variables"])
        if bad:
            return bad
        broken = [c for c in inst["clauses"] if not satisfied(c, set(answer))]
        return f"{len(broken)} clauses are false, e.g. {clause_text(broken[0])}" if broken else None

    def corrupt(self, inst: dict[str, Any], answer: list[int], rng: random.Random) -> list[int]:
        variables = list(range(1, inst["variables"] + 1))
        rng.shuffle(variables)
        for v in variables:  # flip one variable that breaks a clause
            flipped = sorted(set(answer) ^ {v})
            if not all(satisfied(c, set(flipped)) for c in inst["clauses"]):
                return flipped
        return answer

    def baseline_all_true(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return list(range(1, inst["variables"] + 1))

    def baseline_all_false(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return []

    def baseline_majority(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return majority(inst["variables"], inst["clauses"])
