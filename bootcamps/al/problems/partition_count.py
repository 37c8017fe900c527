"""al/partition_count: the number of ways to write n as a sum of allowed parts (order ignored), modulo a prime."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Problem, number

MOD = 1_000_000_007


def ways(parts: list[int], total: int, mod: int = MOD) -> int:
    """Multisets of parts adding up to total: the coin-change count, one part value at a time."""
    count = [1] + [0] * total
    for part in parts:
        for t in range(part, total + 1):
            count[t] = (count[t] + count[t - part]) % mod
    return count[total]


def ordered_ways(parts: list[int], total: int, mod: int = MOD) -> int:
    """Sequences of parts adding up to total (order counted: the usual slip)."""
    count = [1] + [0] * total
    for t in range(1, total + 1):
        count[t] = sum(count[t - part] for part in parts if part <= t) % mod
    return count[total]


class PartitionCount(Problem):
    name = "partition_count"
    title = "Counting partitions into given parts"
    knobs = {"parts": Knob(5, 2, 20, "allowed part sizes"), "max_part": Knob(20, 3, 500, "part sizes are 1..it"),
             "total": Knob(150, 10, 100000, "the number n, at most")}
    groups = {"easy": {"parts": 4, "max_part": 20, "total": 120}, "medium": {"parts": 5, "max_part": 20,
                                                                             "total": 150},
              "hard": {"parts": 7, "max_part": 40, "total": 1000}}
    answer_format = "the count alone (modulo 1000000007), e.g. <answer>n</answer>."
    baselines = {"ordered": "the sequences of parts (order counted)", "largest_part": "n divided by the largest part, "
                 "rounded down, plus one"}

    def validate(self, p: Any) -> None:
        if p.parts > p.max_part:
            raise ValueError("parts must be at most max_part")

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        parts = sorted(rng.sample(range(1, p.max_part + 1), p.parts))
        total = rng.randint(p.total // 2, p.total)
        count = ways(parts, total)
        inst = {"parts": parts, "total": total, "solution": count}
        if count < 100 or any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        return (f"In how many ways can {inst['total']} be written as a sum of parts, each part one of "
                f"{', '.join(map(str, inst['parts']))} (any part may repeat)? The order of the parts does not matter: "
                f"5 = 2 + 3 and 5 = 3 + 2 are one way. Give the count modulo {MOD}.")

    def show(self, answer: int) -> str:
        return str(answer)

    def read(self, body: str) -> int | None:
        return number(body)

    def check(self, inst: dict[str, Any], answer: int) -> str | None:
        return None if answer == inst["solution"] else f"{answer} is not the number of ways (mod {MOD})"

    def corrupt(self, inst: dict[str, Any], answer: int, rng: random.Random) -> int:
        return (answer + rng.choice((-1, 1))) % MOD

    def baseline_ordered(self, inst: dict[str, Any], rng: random.Random) -> int:
        return ordered_ways(inst["parts"], inst["total"])

    def baseline_largest_part(self, inst: dict[str, Any], rng: random.Random) -> int:
        return inst["total"] // max(inst["parts"]) + 1
