"""al/tsp: a shortest round trip through every city of a small table of distances (Held-Karp; any shortest tour,
from any city, in either direction, scores)."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Problem


def shortest_tour(dist: list[list[int]]) -> tuple[int, list[int]]:
    """(length, a tour from city 1) by Held-Karp over subsets (O(2^n n^2))."""
    n = len(dist)
    best: dict[tuple[int, int], tuple[int, int]] = {(1, 0): (0, -1)}  # (visited mask, last city) -> (length, prev)
    for mask in range(1, 1 << n, 2):
        for last in range(n):
            here = best.get((mask, last))
            if here is None:
                continue
            for nxt in range(1, n):
                if mask >> nxt & 1:
                    continue
                key, length = (mask | 1 << nxt, nxt), here[0] + dist[last][nxt]
                if key not in best or length < best[key][0]:
                    best[key] = (length, last)
    full = (1 << n) - 1
    total, last = min((best[(full, c)][0] + dist[c][0], c) for c in range(1, n))
    tour, mask = [], full
    while last != -1:
        tour.append(last + 1)
        mask, last = mask & ~(1 << last), best[(mask, last)][1]
    return total, tour[::-1]


def tour_length(dist: list[list[int]], tour: list[int]) -> int:
    return sum(dist[a - 1][b - 1] for a, b in zip(tour, tour[1:] + tour[:1], strict=True))


class Tsp(Problem):
    name = "tsp"
    title = "Travelling salesman (shortest round trip)"
    knobs = {"cities": Knob(7, 4, 10, "cities"), "max_distance": Knob(50, 5, 999, "distances are 1..max_distance")}
    groups = {"easy": {"cities": 7, "max_distance": 30}, "medium": {"cities": 8, "max_distance": 60},
              "hard": {"cities": 9, "max_distance": 99}}
    answer_format = ("the cities in the order you visit them, each once (the trip returns to the first; writing "
                     "the first again at the end is allowed), e.g. <answer>a b c d</answer>.")
    baselines = {"nearest": "from city 1 always the nearest city not visited yet",
                 "in_order": "the cities in number order"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        n = p.cities
        dist = [[0] * n for _ in range(n)]
        for i in range(n):
            for j in range(i + 1, n):
                dist[i][j] = dist[j][i] = rng.randint(1, p.max_distance)
        total, tour = shortest_tour(dist)
        inst = {"distances": dist, "optimum": total, "solution": tour}
        if any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        n, dist = len(inst["distances"]), inst["distances"]
        rows = "\n".join(f"{i}-{j}: {dist[i - 1][j - 1]}" for i in range(1, n + 1) for j in range(i + 1, n + 1))
        return (f"{n} cities numbered 1..{n}; the distance between each two (the same both ways):\n{rows}\n\nFind a "
                "round trip that visits every city exactly once and returns to where it started, as short as possible "
                "in total.")

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        n = len(inst["distances"])
        if len(answer) == n + 1 and answer[0] == answer[-1]:  # the trip written back to its first city
            answer = answer[:-1]
        if sorted(answer) != list(range(1, n + 1)):
            return f"not every city 1..{n} exactly once"
        length = tour_length(inst["distances"], answer)
        if length != inst["optimum"]:
            return f"a trip of length {length}; the shortest is {inst['optimum']}"
        return None

    def baseline_nearest(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        dist, tour = inst["distances"], [1]
        while len(tour) < len(dist):
            tour.append(min((c for c in range(1, len(dist) + 1) if c not in tour),
                            key=lambda c: (dist[tour[-1] - 1][c - 1], c)))
        return tour

    def baseline_in_order(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return list(range(1, len(inst["distances"]) + 1))
