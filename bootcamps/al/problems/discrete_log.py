"""al/discrete_log: the exponent x with g^x = h modulo a prime, g a primitive root (baby-step giant-step)."""
from __future__ import annotations

import math
import random
from typing import Any

from ..core import Knob, Problem, number


def is_prime(n: int) -> bool:
    return n >= 2 and all(n % d for d in range(2, math.isqrt(n) + 1))


def prime_factors(n: int) -> set[int]:
    out, d = set(), 2
    while d * d <= n:
        while n % d == 0:
            out.add(d)
            n //= d
        d += 1
    return out | ({n} if n > 1 else set())


def is_primitive_root(g: int, p: int) -> bool:
    return all(pow(g, (p - 1) // q, p) != 1 for q in prime_factors(p - 1))


def log_mod(g: int, h: int, p: int) -> int:
    """The x in [0, p-2] with g^x = h (mod p), g a primitive root: baby steps g^j, giant steps h g^(-m i)."""
    m = math.isqrt(p - 1) + 1
    table = {}
    value = 1
    for j in range(m):
        table.setdefault(value, j)
        value = value * g % p
    giant, gamma = pow(g, -m, p), h
    for i in range(m):
        if gamma in table:
            return (i * m + table[gamma]) % (p - 1)
        gamma = gamma * giant % p
    raise ValueError("no logarithm: g is not a primitive root")


class DiscreteLog(Problem):
    name = "discrete_log"
    title = "Discrete logarithm modulo a prime"
    knobs = {"min_prime": Knob(1000, 11, 10**7, "the prime is drawn from min_prime..2*min_prime")}
    groups = {"easy": {"min_prime": 200}, "medium": {"min_prime": 5000}, "hard": {"min_prime": 200000}}
    answer_format = "the exponent alone, e.g. <answer>n</answer>."
    baselines = {"copy_target": "the target number itself", "one": "the exponent 1"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        prime = rng.randint(p.min_prime, 2 * p.min_prime)
        while not is_prime(prime):
            prime += 1
        base = rng.randint(2, prime - 2)
        if not is_primitive_root(base, prime):
            return None
        x = rng.randint(2, prime - 2)
        inst = {"prime": prime, "base": base, "target": pow(base, x, prime), "solution": x}
        if any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        return (f"Modulo the prime p = {inst['prime']}, the number g = {inst['base']} is a primitive root.\n\nFind the "
                f"exponent x, with 0 <= x <= {inst['prime'] - 2}, such that {inst['base']}^x leaves remainder "
                f"{inst['target']} when divided by {inst['prime']}.")

    def solve(self, inst: dict[str, Any]) -> int:
        return log_mod(inst["base"], inst["target"], inst["prime"])

    def show(self, answer: int) -> str:
        return str(answer)

    def read(self, body: str) -> int | None:
        return number(body)

    def check(self, inst: dict[str, Any], answer: int) -> str | None:
        if not 0 <= answer <= inst["prime"] - 2:
            return f"x must be in 0..{inst['prime'] - 2}"
        got = pow(inst["base"], answer, inst["prime"])
        return None if got == inst["target"] else f"g^{answer} leaves {got}, not {inst['target']}"

    def corrupt(self, inst: dict[str, Any], answer: int, rng: random.Random) -> int:
        return (answer + 1) % (inst["prime"] - 1)

    def baseline_copy_target(self, inst: dict[str, Any], rng: random.Random) -> int:
        return inst["target"]

    def baseline_one(self, inst: dict[str, Any], rng: random.Random) -> int:
        return 1
