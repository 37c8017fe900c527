"""al/two_sat: a satisfying assignment of a 2-CNF formula (any satisfying assignment scores)."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Problem


def satisfied(clauses: list[list[int]], true: set[int]) -> bool:
    return all(any((lit > 0) == (abs(lit) in true) for lit in clause) for clause in clauses)


def majority(n: int, clauses: list[list[int]]) -> list[int]:
    """Each variable set the way it appears more often (true on a tie)."""
    score = [0] * (n + 1)
    for clause in clauses:
        for lit in clause:
            score[abs(lit)] += 1 if lit > 0 else -1
    return [v for v in range(1, n + 1) if score[v] >= 0]


def literal(lit: int) -> str:
    return f"x{lit}" if lit > 0 else f"NOT x{-lit}"


class TwoSat(Problem):
    name = "two_sat"
    title = "2-SAT"
    knobs = {"variables": Knob(10, 3, 60, "variables x1..xn"), "clauses": Knob(24, 3, 300, "clauses of two literals")}
    groups = {"easy": {"variables": 8, "clauses": 20}, "medium": {"variables": 12, "clauses": 32},
              "hard": {"variables": 18, "clauses": 50}}
    answer_format = ("the numbers of the variables you set TRUE, separated by spaces (every other one is FALSE), "
                     "e.g. <answer>a b</answer> for xa and xb true.")
    baselines = {"all_true": "every variable true", "all_false": "every variable false",
                 "majority": "each variable the way it appears more often"}

    def validate(self, p: Any) -> None:
        most = 3 * p.variables * (p.variables - 1) // 2  # distinct clauses the hidden assignment satisfies
        if p.clauses > most:
            raise ValueError(f"clauses must be at most 3 * variables * (variables - 1) / 2 = {most}")

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        planted = {v for v in range(1, p.variables + 1) if rng.random() < 0.5}
        sign = {v: 1 if v in planted else -1 for v in range(1, p.variables + 1)}
        clauses: list[list[int]] = []
        while len(clauses) < p.clauses:  # each clause keeps at least one literal the planted assignment makes true
            a, b = rng.sample(range(1, p.variables + 1), 2)
            clause = [a * sign[a] * rng.choice((1, -1)), b * sign[b] * rng.choice((1, -1))]
            if satisfied([clause], planted) and sorted(clause) not in (sorted(c) for c in clauses):
                clauses.append(clause)
        inst = {"variables": p.variables, "clauses": clauses, "solution": sorted(planted)}
        if any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(f"({literal(a)}) OR ({literal(b)})" for a, b in inst["clauses"])
        return (f"Variables x1..x{inst['variables']} are each TRUE or FALSE. Every one of these clauses must hold:\n"
                f"{rows}\n\nFind an assignment that makes every clause true.")

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        n = inst["variables"]
        if len(set(answer)) < len(answer) or not all(1 <= v <= n for v in answer):
            return f"variable numbers must be distinct, from 1 to {n}"
        broken = [c for c in inst["clauses"] if not satisfied([c], set(answer))]
        return f"clause ({literal(broken[0][0])}) OR ({literal(broken[0][1])}) is false" if broken else None

    def corrupt(self, inst: dict[str, Any], answer: list[int], rng: random.Random) -> list[int]:
        variables = list(range(1, inst["variables"] + 1))
        rng.shuffle(variables)
        for v in variables:  # flip one variable that breaks a clause
            flipped = sorted(set(answer) ^ {v})
            if not satisfied(inst["clauses"], set(flipped)):
                return flipped
        return answer

    def baseline_all_true(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return list(range(1, inst["variables"] + 1))

    def baseline_all_false(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return []

    def baseline_majority(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return majority(inst["variables"], inst["clauses"])
