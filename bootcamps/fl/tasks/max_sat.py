"""fl/max_sat: an assignment satisfying as many clauses as possible of an unsatisfiable CNF formula (exact optimum
by enumeration; any optimal assignment scores)."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Task, clause_text, distinct_variables, majority, satisfied


def falsified_counts(n: int, clauses: list[list[int]]) -> list[int]:
    """For each assignment (bit v-1 of the index is x_v), how many clauses it falsifies: a clause is false exactly
    on the assignments that fix its variables against it, enumerated as sub-masks of the free variables."""
    counts = [0] * (1 << n)
    full = (1 << n) - 1
    for clause in clauses:
        fixed = value = 0
        for lit in clause:
            bit = 1 << (abs(lit) - 1)
            fixed |= bit
            if lit < 0:
                value |= bit  # a negative literal is false when its variable is true
        free = full & ~fixed
        sub = free
        while True:
            counts[sub | value] += 1
            if sub == 0:
                break
            sub = (sub - 1) & free
    return counts


def as_set(mask: int, n: int) -> list[int]:
    return [v for v in range(1, n + 1) if mask >> (v - 1) & 1]


class MaxSat(Task):
    name = "max_sat"
    title = "MAX-SAT"
    knobs = {"variables": Knob(9, 4, 14, "variables x1..xn (the optimum is found by enumerating 2^n assignments)"),
             "clauses": Knob(50, 8, 150, "clauses of two or three literals")}
    groups = {"easy": {"variables": 8, "clauses": 40}, "medium": {"variables": 10, "clauses": 52},
              "hard": {"variables": 12, "clauses": 66}}
    answer_format = ("the numbers of the variables you set TRUE, separated by spaces (every other one is FALSE), "
                     "e.g. <answer>1 4</answer> for x1 and x4 true (<answer>none</answer> for none).")
    baselines = {"all_true": "every variable true", "all_false": "every variable false",
                 "majority": "each variable the way it appears more often"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        n = p.variables
        clauses = []
        for _ in range(p.clauses):
            width = rng.choice((2, 3, 3))
            clauses.append([v * rng.choice((1, -1)) for v in rng.sample(range(1, n + 1), width)])
        counts = falsified_counts(n, clauses)
        least = min(counts)
        if least == 0:
            return None  # satisfiable: that is fl/cnf_sat
        if counts.count(least) > 2:
            return None  # many optimal assignments: a fixed answer would often be one of them
        best = counts.index(least)
        inst = {"variables": n, "clauses": clauses, "optimum": len(clauses) - least, "solution": as_set(best, n)}
        return None if self.any_baseline_accepted(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(clause_text(c) for c in inst["clauses"])
        return (f"Variables x1..x{inst['variables']} are each TRUE or FALSE. Here are {len(inst['clauses'])} "
                f"clauses:\n{rows}\n\nNo assignment makes them all true. Find an assignment that makes as many of "
                "them true as possible.")

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        bad = distinct_variables(answer, inst["variables"])
        if bad:
            return bad
        true = sum(satisfied(c, set(answer)) for c in inst["clauses"])
        return None if true == inst["optimum"] else f"{true} clauses true; the most is {inst['optimum']}"

    def corrupt(self, inst: dict[str, Any], answer: list[int], rng: random.Random) -> list[int]:
        v = rng.randrange(1, inst["variables"] + 1)
        return sorted(set(answer) ^ {v})  # kept only when it falls short (wrong_answer checks)

    def baseline_all_true(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return list(range(1, inst["variables"] + 1))

    def baseline_all_false(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return []

    def baseline_majority(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return majority(inst["variables"], inst["clauses"])
