"""al/josephus: the last people left in the Josephus elimination, in the order they go."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Problem

LAST = 3  # people asked for: the last three removed, the survivor last


def last_removed(n: int, k: int, first: int = 1, last: int = LAST) -> list[int]:
    """The last `last` people removed (the survivor last) when every k-th of 1..n is removed around the circle,
    counting from person `first`.
    J(m) (0-based position of the last one of m people) = (J(m-1) + k) mod m; the i-th from last removed is the
    survivor of the circle that still holds i people, mapped back to the full circle the same way."""
    out = []
    for left in range(last, 0, -1):  # the person removed when `left` people remain is position 0 of that circle
        pos = (k - 1) % left  # removed first among `left` people
        for m in range(left + 1, n + 1):
            pos = (pos + k) % m
        out.append((pos + first - 1) % n + 1)
    return out


class Josephus(Problem):
    name = "josephus"
    title = "Josephus problem"
    knobs = {"min_people": Knob(100, 5, 10**5, "people: min_people..2*min_people"),
             "max_step": Knob(30, 2, 1000, "the count k is 2..max_step")}
    groups = {"easy": {"min_people": 50, "max_step": 40}, "medium": {"min_people": 100, "max_step": 60},
              "hard": {"min_people": 1000, "max_step": 300}}
    answer_format = (f"the numbers of the last {LAST} people removed, in the order they are removed (the survivor "
                     "last), separated by spaces, e.g. <answer>a b c</answer>.")
    baselines = {"last_numbers": "the three highest numbers", "first_removed": "the first three people removed"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        n, k = rng.randint(p.min_people, 2 * p.min_people), rng.randint(2, p.max_step)
        first = rng.randint(1, n)
        inst = {"people": n, "step": k, "first": first, "solution": last_removed(n, k, first)}
        if any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        n, k = inst["people"], inst["step"]
        first = inst.get("first", 1)
        return (f"{n} people stand in a circle, numbered 1 to {n} clockwise. Counting starts at person {first}: "
                f"count {k} people clockwise (person {first} is the first counted) and remove the last one counted; "
                f"counting resumes at the next person still in the circle, and again the last of every {k} counted "
                f"is removed, until one person is left.\n\nWho are the last {LAST} people removed (the one left at "
                "the end counts as removed last)?")

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        return None if answer == inst["solution"] else "not the last three, in order"

    def corrupt(self, inst: dict[str, Any], answer: list[int], rng: random.Random) -> list[int]:
        return answer[::-1] if answer[0] != answer[-1] else answer[:-1]

    def baseline_last_numbers(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        n = inst["people"]
        return [n - 2, n - 1, n]

    def baseline_first_removed(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        n, k = inst["people"], inst["step"]
        circle, pos, out = list(range(1, n + 1)), inst.get("first", 1) - 1, []
        for _ in range(LAST):
            pos = (pos + k - 1) % len(circle)
            out.append(circle.pop(pos))
        return out
