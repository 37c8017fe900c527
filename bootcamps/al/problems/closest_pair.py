"""al/closest_pair: two points at the least distance among integer points (any closest pair scores)."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Problem, pairs


def gap(points: list[list[int]], a: int, b: int) -> int:
    (x1, y1), (x2, y2) = points[a - 1], points[b - 1]
    return (x1 - x2) ** 2 + (y1 - y2) ** 2


class ClosestPair(Problem):
    name = "closest_pair"
    title = "Closest pair of points"
    knobs = {"points": Knob(24, 3, 200, "points"), "span": Knob(199, 5, 99999, "coordinates are 0..span")}
    groups = {"easy": {"points": 16, "span": 99}, "medium": {"points": 24, "span": 199},
              "hard": {"points": 36, "span": 299}}  # 120+ pairs: another task's answer is rarely this one's
    answer_format = "the two point numbers as `a-b`, e.g. <answer>a-b</answer>."
    baselines = {"x_neighbours": "the closest of the pairs next to each other in order of x",
                 "nearest_to_first": "point 1 and the point nearest to it"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        cells = rng.sample(range((p.span + 1) ** 2), p.points)
        points = [[c % (p.span + 1), c // (p.span + 1)] for c in cells]
        n = len(points)
        best = min((gap(points, a, b), a, b) for a in range(1, n + 1) for b in range(a + 1, n + 1))
        inst = {"points": points, "optimum": best[0], "solution": [best[1], best[2]]}
        if any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(f"point {k}: ({x}, {y})" for k, (x, y) in enumerate(inst["points"], 1))
        return f"Points in the plane:\n{rows}\n\nWhich two of them are closest to each other (straight-line distance)?"

    def show(self, answer: list[int]) -> str:
        return f"{answer[0]}-{answer[1]}"

    def read(self, body: str) -> list[int] | None:
        found = pairs(body, limit=1)
        return list(found[0]) if found else None

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        a, b = answer
        n = len(inst["points"])
        if a == b or not (1 <= a <= n and 1 <= b <= n):
            return f"two different point numbers 1..{n}"
        d = gap(inst["points"], a, b)
        return None if d == inst["optimum"] else f"squared distance {d}; the least is {inst['optimum']}"

    def corrupt(self, inst: dict[str, Any], answer: list[int], rng: random.Random) -> list[int]:
        return self.baseline_nearest_to_first(inst, rng)

    def baseline_x_neighbours(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        pts = inst["points"]
        order = sorted(range(1, len(pts) + 1), key=lambda k: pts[k - 1])
        return list(min(zip(order, order[1:], strict=False), key=lambda ab: gap(pts, *ab)))

    def baseline_nearest_to_first(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        pts = inst["points"]
        return [1, min(range(2, len(pts) + 1), key=lambda k: (gap(pts, 1, k), k))]
