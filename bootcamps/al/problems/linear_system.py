"""al/linear_system: the unique solution of a system of linear congruences modulo a prime."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Problem

PRIMES = (97, 101, 103, 107, 109, 113, 127, 131, 137, 139, 149, 151, 157, 163, 167, 173, 179, 181, 191, 193, 197,
          199, 211, 223, 227, 229, 233, 239, 241, 251, 257, 263, 269, 271, 277, 281, 283, 293, 307, 311, 313, 317,
          331, 337, 347, 349, 353, 359, 367, 373, 379, 383, 389, 397, 401, 409, 419, 421, 431, 433, 439, 443, 449,
          457, 461, 463, 467, 479, 487, 491, 499, 503, 509, 521, 523, 541, 547, 557, 563, 569, 571, 577, 587, 593,
          599, 601, 607, 613, 617, 619, 631, 641, 643, 647, 653, 659, 661, 673, 677, 683, 691, 701, 709, 719, 727,
          733, 739, 743, 751, 757, 761, 769, 773, 787, 797, 809, 811, 821, 823, 827, 829, 839, 853, 857, 859, 863,
          877, 881, 883, 887, 907, 911, 919, 929, 937, 941, 947, 953, 967, 971, 977, 983, 991, 997)


def solve_mod(a: list[list[int]], b: list[int], p: int) -> list[int] | None:
    """Gauss-Jordan elimination modulo the prime p; None when the matrix is singular mod p."""
    n = len(a)
    m = [[x % p for x in row] + [y % p] for row, y in zip(a, b, strict=True)]
    for col in range(n):
        pivot = next((r for r in range(col, n) if m[r][col]), None)
        if pivot is None:
            return None
        m[col], m[pivot] = m[pivot], m[col]
        inverse = pow(m[col][col], -1, p)
        m[col] = [x * inverse % p for x in m[col]]
        for r in range(n):
            if r != col and m[r][col]:
                factor = m[r][col]
                m[r] = [(x - factor * y) % p for x, y in zip(m[r], m[col], strict=True)]
    return [row[n] for row in m]


class LinearSystem(Problem):
    name = "linear_system"
    title = "Linear congruences modulo a prime"
    knobs = {"unknowns": Knob(3, 2, 8, "unknowns and equations"), "max_coeff": Knob(9, 1, 99, "coefficients are "
                                                                                    "0..max_coeff")}
    groups = {"easy": {"unknowns": 2, "max_coeff": 9}, "medium": {"unknowns": 3, "max_coeff": 9},
              "hard": {"unknowns": 4, "max_coeff": 12}}
    answer_format = "x1 x2 ... in order, each in 0..p-1, separated by spaces, e.g. <answer>a b c</answer>."
    baselines = {"copy_right": "the right-hand sides as the solution",
                 "diagonal": "each right-hand side divided by its equation's own diagonal coefficient (mod p)"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        prime = rng.choice(PRIMES)
        a = [[rng.randint(0, p.max_coeff) for _ in range(p.unknowns)] for _ in range(p.unknowns)]
        x = [rng.randrange(prime) for _ in range(p.unknowns)]
        b = [sum(c * v for c, v in zip(row, x, strict=True)) % prime for row in a]
        if solve_mod(a, b, prime) != x:
            return None  # singular mod p: more than one solution
        inst = {"prime": prime, "matrix": a, "right": b, "solution": x}
        if any(self.accepts(inst, self.baseline(k, inst, rng)) for k in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        n = len(inst["right"])
        rows = "\n".join(" + ".join(f"{c}*x{k}" for k, c in enumerate(row, 1)) + f" = {y}  (mod {inst['prime']})"
                         for row, y in zip(inst["matrix"], inst["right"], strict=True))
        return (f"Find whole numbers x1..x{n}, each in 0..{inst['prime'] - 1}, with\n{rows}\n\n(= mod p: both sides "
                f"leave the same remainder when divided by {inst['prime']}; the solution is unique.)")

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        prime, n = inst["prime"], len(inst["right"])
        if len(answer) != n or any(not 0 <= v < prime for v in answer):
            return f"{n} numbers, each in 0..{prime - 1}"
        for k, (row, y) in enumerate(zip(inst["matrix"], inst["right"], strict=True), 1):
            if sum(c * v for c, v in zip(row, answer, strict=True)) % prime != y:
                return f"equation {k} does not hold"
        return None

    def corrupt(self, inst: dict[str, Any], answer: list[int], rng: random.Random) -> list[int]:
        wrong, k = list(answer), rng.randrange(len(answer))
        wrong[k] = (wrong[k] + 1) % inst["prime"]
        return wrong

    def baseline_copy_right(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return list(inst["right"])

    def baseline_diagonal(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        prime = inst["prime"]
        return [y * pow(row[k], -1, prime) % prime if row[k] else y
                for k, (row, y) in enumerate(zip(inst["matrix"], inst["right"], strict=True))]
