"""al/linear_recurrence: a far term of an integer linear recurrence modulo a prime (matrix powers)."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Problem, number

PRIMES = (10007, 1000003, 998244353)  # the modulus of each group: easy, medium, hard (knob `prime`: 0, 1, 2)


def mat_mul(a: list[list[int]], b: list[list[int]], mod: int) -> list[list[int]]:
    return [[sum(x * y for x, y in zip(row, col, strict=True)) % mod for col in zip(*b, strict=True)] for row in a]


def term(coeffs: list[int], start: list[int], index: int, mod: int) -> int:
    """a_index of a_i = c_1 a_(i-1) + ... + c_k a_(i-k) (mod p), from a_0..a_(k-1), by fast matrix powers."""
    k = len(coeffs)
    if index < k:
        return start[index] % mod
    step = [coeffs] + [[int(j == i) for j in range(k)] for i in range(k - 1)]
    power, e = [[int(i == j) for j in range(k)] for i in range(k)], index - k + 1
    while e:
        if e & 1:
            power = mat_mul(power, step, mod)
        step, e = mat_mul(step, step, mod), e >> 1
    state = [[x] for x in reversed(start)]  # a_(k-1) first
    return mat_mul(power, state, mod)[0][0]


class LinearRecurrence(Problem):
    name = "linear_recurrence"
    title = "Linear recurrence modulo a prime"
    knobs = {"order": Knob(2, 1, 6, "terms the recurrence looks back"),
             "digits": Knob(3, 1, 18, "the index asked for has this many digits"),
             "prime": Knob(1, 0, 2, f"the modulus: {', '.join(map(str, PRIMES))}")}
    groups = {"easy": {"order": 2, "digits": 2, "prime": 0}, "medium": {"order": 2, "digits": 4, "prime": 1},
              "hard": {"order": 3, "digits": 12, "prime": 2}}
    answer_format = "the number alone, from 0 to the modulus minus 1, e.g. <answer>n</answer>."
    baselines = {"last_given": "the last term given", "next_term": "the first term after those given"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        mod = PRIMES[p.prime]
        coeffs = [rng.randint(1, 9) for _ in range(p.order)]
        start = [rng.randint(0, 20) for _ in range(p.order)]
        index = rng.randint(10 ** (p.digits - 1) + p.order, 10 ** p.digits)
        inst = {"coeffs": coeffs, "start": start, "index": index, "modulus": mod,
                "solution": term(coeffs, start, index, mod)}
        if any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        k = len(inst["coeffs"])
        rule = " + ".join(f"{c}*a(n-{j})" for j, c in enumerate(inst["coeffs"], start=1))
        given = ", ".join(f"a({i}) = {v}" for i, v in enumerate(inst["start"]))
        return (f"A sequence starts with {given}, and for every n >= {k}: a(n) = ({rule}) mod {inst['modulus']}.\n\n"
                f"Find a({inst['index']}).")

    def show(self, answer: int) -> str:
        return str(answer)

    def read(self, body: str) -> int | None:
        return number(body)

    def check(self, inst: dict[str, Any], answer: int) -> str | None:
        return None if answer == inst["solution"] else f"{answer} is not a({inst['index']})"

    def corrupt(self, inst: dict[str, Any], answer: int, rng: random.Random) -> int:
        return (answer + rng.randint(1, 9)) % inst["modulus"]

    def baseline_last_given(self, inst: dict[str, Any], rng: random.Random) -> int:
        return inst["start"][-1]

    def baseline_next_term(self, inst: dict[str, Any], rng: random.Random) -> int:
        return term(inst["coeffs"], inst["start"], len(inst["start"]), inst["modulus"])
