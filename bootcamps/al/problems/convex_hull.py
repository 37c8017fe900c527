"""al/convex_hull: the corners of the convex hull of integer points, in order around it (any start, either way)."""
from __future__ import annotations

import math
import random
from typing import Any

from ..core import Knob, Problem


def cross(o: list[int], a: list[int], b: list[int]) -> int:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def hull(points: list[list[int]], keep_collinear: bool = False) -> list[int]:
    """Andrew's monotone chain: the hull's point numbers counter-clockwise from the lowest-leftmost; points in the
    middle of an edge dropped unless `keep_collinear`."""
    order = sorted(range(1, len(points) + 1), key=lambda k: points[k - 1])

    def chain(ks: list[int]) -> list[int]:
        out: list[int] = []
        for k in ks:
            while len(out) >= 2 and (turn := cross(points[out[-2] - 1], points[out[-1] - 1], points[k - 1])) <= 0 \
                    and not (keep_collinear and turn == 0):
                out.pop()
            out.append(k)
        return out

    lower, upper = chain(order), chain(order[::-1])
    return lower[:-1] + upper[:-1]


def same_cycle(a: list[int], b: list[int]) -> bool:
    """Whether a lists the cycle b from some start, in either direction."""
    if len(a) != len(b) or not a:
        return False
    for seq in (b, b[::-1]):
        k = seq.index(a[0]) if a[0] in seq else -1
        if k >= 0 and seq[k:] + seq[:k] == a:
            return True
    return False


class ConvexHull(Problem):
    name = "convex_hull"
    title = "Convex hull"
    knobs = {"points": Knob(14, 4, 80, "points"), "span": Knob(10, 3, 999, "coordinates are 0..span")}
    groups = {"easy": {"points": 9, "span": 8}, "medium": {"points": 14, "span": 10},
              "hard": {"points": 22, "span": 14}}
    answer_format = ("the numbers of the hull's corner points in order around the hull (start anywhere, either way), "
                     "separated by spaces, e.g. <answer>a b c d</answer>.")
    baselines = {"with_edge_points": "every point on the hull's boundary, the ones inside an edge too",
                 "extremes": "the leftmost, lowest, rightmost and highest points, around"}

    def validate(self, p: Any) -> None:
        if p.points > (p.span + 1) ** 2:
            raise ValueError("points must be at most (span + 1)^2 (distinct points)")

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        cells = rng.sample(range((p.span + 1) ** 2), p.points)
        points = [[c % (p.span + 1), c // (p.span + 1)] for c in cells]
        corners = hull(points)
        inst = {"points": points, "solution": corners}
        if len(corners) < 4 or any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(f"point {k}: ({x}, {y})" for k, (x, y) in enumerate(inst["points"], 1))
        return (f"Points in the plane:\n{rows}\n\nList the corners of their convex hull (the smallest convex polygon "
                "containing them all) in order around it. A point in the middle of a hull edge is not a corner.")

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        if len(set(answer)) != len(answer):
            return "a point listed twice"
        if set(answer) != set(inst["solution"]):
            return "not the set of hull corners"
        return None if same_cycle(answer, inst["solution"]) else "the corners are not in order around the hull"

    def baseline_with_edge_points(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return hull(inst["points"], keep_collinear=True)

    def baseline_extremes(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        pts = inst["points"]
        picks = {min(range(1, len(pts) + 1), key=lambda k: (pts[k - 1][0] * s + pts[k - 1][1] * t, k))
                 for s, t in ((1, 0), (0, 1), (-1, 0), (0, -1))}
        cx = sum(pts[k - 1][0] for k in picks) / len(picks)
        cy = sum(pts[k - 1][1] for k in picks) / len(picks)
        return sorted(picks, key=lambda k: math.atan2(pts[k - 1][1] - cy, pts[k - 1][0] - cx))
