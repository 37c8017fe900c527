"""al/crt: the smallest non-negative solution of a system of congruences (Chinese remainder theorem)."""
from __future__ import annotations

import math
import random
from typing import Any

from ..core import Knob, Problem, number


def combine(residues: list[int], moduli: list[int]) -> tuple[int, int]:
    """(x, M): the unique x in [0, M) with x = r_i mod m_i for pairwise coprime m_i, M their product."""
    x, m = 0, 1
    for r, mod in zip(residues, moduli, strict=True):
        # x + m*t = r (mod mod)  =>  t = (r - x) * m^-1 (mod mod)
        t = (r - x) * pow(m, -1, mod) % mod
        x, m = x + m * t, m * mod
    return x % m, m


class Crt(Problem):
    name = "crt"
    title = "Chinese remainder theorem"
    knobs = {"congruences": Knob(3, 2, 8, "congruences"), "max_modulus": Knob(60, 5, 10000, "moduli are 3..it")}
    groups = {"easy": {"congruences": 2, "max_modulus": 40}, "medium": {"congruences": 3, "max_modulus": 60},
              "hard": {"congruences": 4, "max_modulus": 120}}
    answer_format = "the number alone, e.g. <answer>n</answer>."
    baselines = {"largest_residue": "the largest remainder given (it satisfies its own congruence)",
                 "residue_sum": "the sum of the remainders"}

    def validate(self, p: Any) -> None:
        if p.max_modulus < 3 * p.congruences:
            raise ValueError("max_modulus must be at least 3 * congruences (pairwise coprime moduli)")

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        moduli: list[int] = []
        for _ in range(50 * p.congruences):
            m = rng.randint(3, p.max_modulus)
            if all(math.gcd(m, other) == 1 for other in moduli):
                moduli.append(m)
            if len(moduli) == p.congruences:
                break
        else:
            return None
        residues = [rng.randrange(m) for m in moduli]
        x, product = combine(residues, moduli)
        inst = {"residues": residues, "moduli": moduli, "modulus": product, "solution": x}
        if x < max(moduli) or any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(f"x leaves remainder {r} when divided by {m}" for r, m in zip(inst["residues"],
                                                                                       inst["moduli"], strict=True))
        return f"{rows}\n\nFind the smallest non-negative whole number x that does all of this."

    def show(self, answer: int) -> str:
        return str(answer)

    def read(self, body: str) -> int | None:
        return number(body)

    def check(self, inst: dict[str, Any], answer: int) -> str | None:
        wrong = [(r, m) for r, m in zip(inst["residues"], inst["moduli"], strict=True) if answer % m != r]
        if answer < 0 or wrong:
            return f"{answer} does not leave remainder {wrong[0][0]} mod {wrong[0][1]}" if wrong else "negative"
        return None if answer == inst["solution"] else f"{answer} works but is not the smallest"

    def corrupt(self, inst: dict[str, Any], answer: int, rng: random.Random) -> int:
        return answer + inst["modulus"]

    def baseline_largest_residue(self, inst: dict[str, Any], rng: random.Random) -> int:
        return max(inst["residues"])

    def baseline_residue_sum(self, inst: dict[str, Any], rng: random.Random) -> int:
        return sum(inst["residues"])
