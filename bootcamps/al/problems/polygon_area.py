"""al/polygon_area: the exact area of a simple polygon with integer corners (the shoelace formula)."""
from __future__ import annotations

import math
import random
import re
from fractions import Fraction
from typing import Any

from ..core import Knob, Problem

_AREA = re.compile(r"\s*([0-9]{1,12})(?:\.([05]0*))?\s*|\s*([0-9]{1,12})\s*/\s*2\s*")


def twice_area(corners: list[list[int]]) -> int:
    """|sum of x_i y_(i+1) - x_(i+1) y_i| (the shoelace formula, doubled: an integer)."""
    return abs(sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(corners, corners[1:] + corners[:1],
                                                                     strict=True)))


def show_area(twice: int) -> str:
    return str(twice // 2) + (".5" if twice % 2 else "")


class PolygonArea(Problem):
    name = "polygon_area"
    title = "Area of a polygon"
    knobs = {"corners": Knob(8, 3, 40, "corners"), "span": Knob(60, 10, 9999, "coordinates are 0..span")}
    groups = {"easy": {"corners": 5, "span": 40}, "medium": {"corners": 8, "span": 60},
              "hard": {"corners": 12, "span": 99}}
    answer_format = "the area as a decimal number, exact (a half as .5), e.g. <answer>n.5</answer> or <answer>n</answer>."
    baselines = {"bounding_box": "the area of the bounding box", "no_half": "the shoelace sum, not halved"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        c = p.span / 2
        found = set()
        while len(found) < p.corners:  # corners sorted by angle around the centre: a simple (star-shaped) polygon
            found.add((rng.randint(0, p.span), rng.randint(0, p.span)))
        if (round(c), round(c)) in found:
            return None
        corners = sorted(found, key=lambda q: (math.atan2(q[1] - c, q[0] - c), q))
        angles = [math.atan2(y - c, x - c) for x, y in corners]
        turns = [(b - a) % (2 * math.pi) for a, b in zip(angles, angles[1:] + angles[:1], strict=True)]
        if len(set(angles)) < len(angles) or max(turns) >= math.pi:
            return None  # two corners on one ray from the centre, or the centre outside: it may cross itself
        start = rng.randrange(len(corners))
        corners = corners[start:] + corners[:start]
        twice = twice_area([list(q) for q in corners])
        inst = {"corners": [list(q) for q in corners], "twice_area": twice, "solution": twice}
        if any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = " -> ".join(f"({x}, {y})" for x, y in inst["corners"])
        return (f"A polygon whose corners, in order around it (the last joined back to the first), are:\n{rows}\n\n"
                "What is its area, exactly?")

    def show(self, answer: int) -> str:
        return show_area(answer)

    def read(self, body: str) -> int | None:
        found = _AREA.fullmatch(body)
        if not found:
            return None
        whole, half, over_two = found.groups()
        if over_two is not None:
            return int(over_two)
        return 2 * int(whole) + (1 if half and half.startswith("5") else 0)

    def check(self, inst: dict[str, Any], answer: int) -> str | None:
        return None if answer == inst["twice_area"] else f"area {Fraction(answer, 2)} is not the polygon's"

    def corrupt(self, inst: dict[str, Any], answer: int, rng: random.Random) -> int:
        return answer + rng.choice((-1, 1))

    def baseline_bounding_box(self, inst: dict[str, Any], rng: random.Random) -> int:
        xs, ys = [x for x, _ in inst["corners"]], [y for _, y in inst["corners"]]
        return 2 * (max(xs) - min(xs)) * (max(ys) - min(ys))

    def baseline_no_half(self, inst: dict[str, Any], rng: random.Random) -> int:
        return 2 * inst["twice_area"]
