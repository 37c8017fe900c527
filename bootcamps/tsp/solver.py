"""Distances, tour checks and the exact optimum (Held–Karp dynamic programming, O(n² 2ⁿ)) for small tours.

Cities are numbered 1..n for the model; distances are Euclidean distances between integer points rounded to the
nearest integer, halves up (TSPLIB's EUC_2D), computed with integers only so every machine agrees.
"""
from __future__ import annotations

import math
from collections import Counter
from operator import add


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """round(sqrt(dx² + dy²)), halves up, exactly."""
    s = (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2
    n = math.isqrt(s)
    return n + 1 if s - n * n > n else n  # sqrt(s) >= n + 1/2  <=>  s >= n² + n + 1/4


def matrix(coords: list[list[int]]) -> list[list[int]]:
    return [[distance(a, b) for b in coords] for a in coords]


def tour_problem(tour: list[int], n: int) -> str | None:
    """Why `tour` is not a closed tour visiting cities 1..n once each (None when it is). A tour may repeat its
    first city at the end."""
    if len(tour) == n + 1 and n > 1 and tour[0] == tour[-1]:
        tour = tour[:-1]
    counts = Counter(tour)
    twice = sorted(c for c, k in counts.items() if k > 1)
    unknown = sorted(c for c in counts if not 1 <= c <= n)
    missing = [c for c in range(1, n + 1) if c not in counts]
    problems = []
    if unknown:
        problems.append(f"no such city: {', '.join(map(str, unknown[:10]))}")
    if twice:
        problems.append(f"visited more than once: {', '.join(map(str, twice[:10]))}")
    if missing:
        problems.append(f"never visited: {', '.join(map(str, missing[:10]))}")
    return "; ".join(problems) or None


def tour_length(tour: list[int], dist: list[list[int]]) -> int:
    """Length of the closed tour (1-based cities; a repeated first city at the end is allowed)."""
    if len(tour) == len(dist) + 1 and tour[0] == tour[-1]:
        tour = tour[:-1]
    return sum(dist[a - 1][b - 1] for a, b in zip(tour, tour[1:] + tour[:1], strict=True))


def held_karp(dist: list[list[int]]) -> tuple[int, list[int]]:
    """(optimal length, an optimal tour starting at city 1) by dynamic programming over subsets."""
    n = len(dist)
    if n <= 3:
        tour = list(range(1, n + 1))
        return tour_length(tour, dist), tour
    m = n - 1  # cities 2..n are bits 0..m-1; the tour starts and ends at city 1
    inf = float("inf")
    into = [[dist[k + 1][j + 1] for k in range(m)] for j in range(m)]  # into[j][k]: from city k+2 to city j+2
    # cost[mask][j]: shortest path from city 1 through the cities of `mask`, ending at j (inf when j not in mask)
    cost: list[list[float]] = [[inf] * m for _ in range(1 << m)]
    for j in range(m):
        cost[1 << j][j] = dist[0][j + 1]
    for mask in range(1, 1 << m):
        if mask & (mask - 1) == 0:
            continue
        row = cost[mask]
        rest = mask
        while rest:
            low = rest & -rest
            j = low.bit_length() - 1
            rest ^= low
            row[j] = min(map(add, cost[mask ^ low], into[j]))  # non-members are inf on the left: never chosen
    full = (1 << m) - 1
    best = min(cost[full][j] + dist[j + 1][0] for j in range(m))
    # walk back: at each step take a predecessor whose path reaches the recorded cost
    tour, mask = [], full
    j = next(j for j in range(m) if cost[full][j] + dist[j + 1][0] == best)
    while True:
        tour.append(j + 2)
        prev = mask ^ (1 << j)
        if not prev:
            break
        j = next(k for k in range(m) if cost[prev][k] + into[j][k] == cost[mask][j])
        mask = prev
    return int(best), [1] + tour[::-1]
