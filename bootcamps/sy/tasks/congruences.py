"""sy/congruences: the least non-negative solution of a system of congruences x = a_i (mod m_i) (Chinese remainder
theorem; in the hard group the moduli share factors, so the system is solved modulo their lcm), made with
SymPy's `sympy.ntheory.modular.crt` and checked against every congruence."""
from __future__ import annotations

import math
import random
from typing import Any

import sympy as sp
from sympy.ntheory.modular import crt

from .. import parse
from ..core import Knob, Task


class Congruences(Task):
    name = "congruences"
    title = "System of congruences (Chinese remainder theorem)"
    variables = ()
    knobs = {"moduli": Knob(3, 2, 4, "congruences"), "largest": Knob(40, 10, 99, "moduli in 5..largest"),
             "shared": Knob(0, 0, 1, "moduli share factors (solutions exist modulo their lcm)")}
    groups = {"easy": {"moduli": 2, "largest": 60, "shared": 0}, "medium": {"moduli": 3, "largest": 40, "shared": 0},
              "hard": {"moduli": 3, "largest": 60, "shared": 1}}
    answer_format = "the least non-negative integer x, e.g. `1234`."
    baselines = {"first_residue": "the first congruence's residue a_1", "residue_sum": "the sum of the residues",
                 "residue_product": "the product of the residues, reduced modulo the product of the moduli"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        moduli = rng.sample(range(5, p.largest + 1), p.moduli)
        coprime = all(math.gcd(a, b) == 1 for i, a in enumerate(moduli) for b in moduli[i + 1:])
        if coprime == bool(p.shared) or any(a % b == 0 for a in moduli for b in moduli if a != b):
            return None  # shared: some pair has a common factor; no modulus divides another (each congruence counts)
        lcm = math.lcm(*moduli)
        x = rng.randrange(lcm)
        residues = [x % m for m in moduli]
        solved = crt(moduli, residues, check=True)
        if solved is None or int(solved[0]) != x or int(solved[1]) != lcm or x < max(moduli):
            return None
        inst = {"moduli": moduli, "residues": residues, "answer": str(x)}
        return None if self.cheap(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        lines = "\n".join(f"    x = {a} (mod {m})" for a, m in zip(inst["residues"], inst["moduli"], strict=True))
        return f"Find the least non-negative integer x with\n\n{lines}"

    def check(self, inst: dict[str, Any], answer: sp.Expr, body: str) -> str | None:
        if not answer.is_Integer:
            return "not an integer"
        x = int(answer)
        if any(x % m != a for a, m in zip(inst["residues"], inst["moduli"], strict=True)):
            return "a congruence does not hold"
        if not 0 <= x < math.lcm(*inst["moduli"]):
            return "a solution, but not the least non-negative one"
        return None

    def corrupt(self, inst: dict[str, Any], rng: random.Random) -> str:
        # satisfies the first congruence only (no modulus divides another)
        return str((int(inst["answer"]) + inst["moduli"][0]) % math.lcm(*inst["moduli"]))

    def baseline_first_residue(self, inst: dict[str, Any], rng: random.Random) -> str:
        return str(inst["residues"][0])

    def baseline_residue_sum(self, inst: dict[str, Any], rng: random.Random) -> str:
        return str(sum(inst["residues"]))

    def baseline_residue_product(self, inst: dict[str, Any], rng: random.Random) -> str:
        return str(math.prod(inst["residues"]) % math.prod(inst["moduli"]))

    def read(self, body: str) -> sp.Expr:
        return parse.expression(body, ())
