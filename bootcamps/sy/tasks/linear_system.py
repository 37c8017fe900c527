"""sy/linear_system: the unique solution of a square linear system with integer coefficients (rational answers)."""
from __future__ import annotations

import random
from typing import Any

import sympy as sp

from .. import parse
from ..core import Knob, Task, text

NAMES = ("x", "y", "z", "w", "v")


class LinearSystem(Task):
    name = "linear_system"
    title = "Linear system of equations"
    knobs = {"unknowns": Knob(3, 2, 5, "equations and unknowns"), "spread": Knob(5, 2, 9, "coefficients in "
                                                                                         "-spread..spread")}
    groups = {"easy": {"unknowns": 2, "spread": 5}, "medium": {"unknowns": 3, "spread": 5},
              "hard": {"unknowns": 4, "spread": 6}}
    answer_format = "every unknown's value, e.g. `x = 3/2, y = -1, z = 0`."
    baselines = {"zeros": "every unknown 0", "right_sides": "each unknown the right-hand side of its equation",
                 "diagonal": "each equation solved for its own unknown as if the others were 0"}

    def read(self, body: str) -> str:
        return body  # the unknowns are the instance's: `check` reads the assignments

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        n = p.unknowns
        a = sp.Matrix(n, n, lambda i, j: rng.randint(-p.spread, p.spread))
        det = a.det()
        if det == 0 or any(a[i, i] == 0 for i in range(n)):
            return None
        b = sp.Matrix(n, 1, lambda i, j: rng.randint(-3 * p.spread, 3 * p.spread))
        solution = a.LUsolve(b)
        if all(v.is_Integer for v in solution) and n > 2:
            return None
        names = NAMES[:n]
        equations = []
        for i in range(n):
            lhs = sp.Add(*[a[i, j] * parse.symbol(names[j]) for j in range(n)])
            equations.append(f"{text(lhs)} = {b[i]}")
        inst = {"unknowns": list(names), "equations": equations, "matrix": [[int(v) for v in a.row(i)] for i in range(n)],
                "rhs": [int(v) for v in b], "answer": ", ".join(f"{v} = {text(s)}" for v, s in zip(names, solution, strict=True))}
        return None if self.cheap(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(f"    {e}" for e in inst["equations"])
        return f"Solve the system of linear equations for {', '.join(inst['unknowns'])}:\n\n{rows}"

    def check(self, inst: dict[str, Any], answer: Any, body: str) -> str | None:
        values = parse.assignments(body, tuple(inst["unknowns"]))
        if not all(v.is_Rational for v in values.values()):
            return "every value must be a rational number"
        for row, rhs in zip(inst["matrix"], inst["rhs"], strict=True):
            if sp.Add(*[c * values[n] for c, n in zip(row, inst["unknowns"], strict=True)]) != rhs:
                return "an equation does not hold"
        return None

    def corrupt(self, inst: dict[str, Any], rng: random.Random) -> str:
        parts = inst["answer"].split(", ")
        i = rng.randrange(len(parts))
        name, _, value = parts[i].partition(" = ")
        parts[i] = f"{name} = {value} + {rng.choice([-1, 1])}"
        return ", ".join(parts)

    def baseline_zeros(self, inst: dict[str, Any], rng: random.Random) -> str:
        return ", ".join(f"{n} = 0" for n in inst["unknowns"])

    def baseline_right_sides(self, inst: dict[str, Any], rng: random.Random) -> str:
        return ", ".join(f"{n} = {b}" for n, b in zip(inst["unknowns"], inst["rhs"], strict=True))

    def baseline_diagonal(self, inst: dict[str, Any], rng: random.Random) -> str:
        return ", ".join(f"{n} = {sp.Rational(b, inst['matrix'][i][i])}"
                         for i, (n, b) in enumerate(zip(inst["unknowns"], inst["rhs"], strict=True)))
