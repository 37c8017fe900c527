"""al/interval_scheduling: non-overlapping intervals of the largest total weight (any optimal set scores)."""
from __future__ import annotations

import bisect
import random
from typing import Any

from ..core import Knob, Problem


def heaviest_schedule(intervals: list[list[int]]) -> tuple[int, list[int]]:
    """(largest total weight, the chosen interval numbers, sorted): DP over intervals by end time."""
    order = sorted(range(len(intervals)), key=lambda i: intervals[i][1])
    ends = [intervals[i][1] for i in order]
    best = [(0, [])]  # best[k]: over the first k intervals by end time
    for k, i in enumerate(order):
        start, _, weight = intervals[i]
        before = bisect.bisect_right(ends, start, 0, k)  # intervals ending at or before this start
        take = (best[before][0] + weight, best[before][1] + [i + 1])
        best.append(take if take[0] > best[k][0] else best[k])
    return best[-1][0], sorted(best[-1][1])


def greedy(intervals: list[list[int]], key: Any) -> list[int]:
    """Intervals in `key` order, each kept when it overlaps none kept before."""
    kept: list[int] = []
    for i in sorted(range(len(intervals)), key=key):
        s, e, _ = intervals[i]
        if all(e <= intervals[j][0] or intervals[j][1] <= s for j in kept):
            kept.append(i)
    return sorted(i + 1 for i in kept)


def weight(intervals: list[list[int]], chosen: list[int]) -> int:
    return sum(intervals[i - 1][2] for i in chosen)


class IntervalScheduling(Problem):
    name = "interval_scheduling"
    title = "Weighted interval scheduling"
    knobs = {"count": Knob(12, 4, 60, "intervals"), "horizon": Knob(60, 10, 1000, "times are 0..horizon"),
             "max_weight": Knob(30, 2, 999, "weights are 1..max_weight")}
    groups = {"easy": {"count": 10, "horizon": 40, "max_weight": 20},
              "medium": {"count": 15, "horizon": 60, "max_weight": 30},
              "hard": {"count": 22, "horizon": 100, "max_weight": 50}}
    answer_format = "the numbers of the intervals you choose, separated by spaces, e.g. <answer>a b c</answer>."
    baselines = {"earliest_end": "intervals by end time, each kept when it fits (ignores weights)",
                 "heaviest": "intervals by weight, heaviest first, each kept when it fits"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        intervals = []
        for _ in range(p.count):
            start = rng.randrange(p.horizon)
            intervals.append([start, rng.randint(start + 1, min(p.horizon, start + max(2, p.horizon // 3))),
                              rng.randint(1, p.max_weight)])
        best, chosen = heaviest_schedule(intervals)
        if max(weight(intervals, self.baseline(b, {"intervals": intervals}, rng)) for b in self.baselines) >= best:
            return None
        return {"intervals": intervals, "optimum": best, "solution": chosen}

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(f"interval {i}: from {s} to {e}, weight {w}" for i, (s, e, w) in
                         enumerate(inst["intervals"], start=1))
        return (f"{rows}\n\nChoose intervals that do not overlap (one may start exactly when another ends) with the "
                "largest possible total weight.")

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        intervals = inst["intervals"]
        if len(set(answer)) < len(answer) or not all(1 <= i <= len(intervals) for i in answer):
            return f"interval numbers must be distinct, from 1 to {len(intervals)}"
        spans = sorted(intervals[i - 1][:2] for i in answer)
        if any(later[0] < earlier[1] for earlier, later in zip(spans, spans[1:], strict=False)):
            return "two chosen intervals overlap"
        if weight(intervals, answer) != inst["optimum"]:
            return f"total weight {weight(intervals, answer)}; the largest is {inst['optimum']}"
        return None

    def baseline_earliest_end(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        iv = inst["intervals"]
        return greedy(iv, lambda i: (iv[i][1], iv[i][0], i))

    def baseline_heaviest(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        iv = inst["intervals"]
        return greedy(iv, lambda i: (-iv[i][2], iv[i][1], i))
