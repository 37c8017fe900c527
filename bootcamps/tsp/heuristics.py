"""The cheap tour heuristics a lazy policy finds first, and the floor they set for the score.

The cities in number order, by angle around their centre (a sweep), nearest neighbour from every start, 2-opt
(reverse a stretch of the tour while that shortens it) from each of those, and 2-opt with Or-opt (move a stretch
of 1-3 cities elsewhere) from every nearest-neighbour start. A task is kept only when the shortest of them is
longer than the best known tour by a margin, and the score is the share of that gap closed.
"""
from __future__ import annotations

import hashlib
import math
import threading
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

import orjson

from .search import local_search, neighbour_lists


def nearest_neighbour(dist: list[list[int]], start: int) -> list[int]:
    """The tour (1-based) that always goes to the nearest unvisited city (the lower number on a tie)."""
    n = len(dist)
    tour, left = [start], set(range(1, n + 1)) - {start}
    while left:
        here = dist[tour[-1] - 1]
        nxt = min(left, key=lambda c: (here[c - 1], c))
        tour.append(nxt)
        left.discard(nxt)
    return tour


def two_opt(tour: list[int], dist: list[list[int]]) -> list[int]:
    """Reverse the stretch tour[i..j] whenever that shortens the tour (first improvement), until none does."""
    tour = list(tour)
    n = len(tour)
    improved = True
    while improved:
        improved = False
        for i in range(1, n - 1):
            a, b = tour[i - 1] - 1, tour[i] - 1
            for j in range(i + 1, n):
                c, d = tour[j] - 1, tour[(j + 1) % n] - 1
                if dist[a][c] + dist[b][d] < dist[a][b] + dist[c][d]:
                    tour[i:j + 1] = tour[i:j + 1][::-1]
                    improved = True
                    a, b = tour[i - 1] - 1, tour[i] - 1
    return tour


def length(tour: list[int], dist: list[list[int]]) -> int:
    n = len(tour)
    return sum(dist[tour[k] - 1][tour[(k + 1) % n] - 1] for k in range(n))


def sweep(coords: list[list[int]]) -> list[int]:
    """The cities by angle around their centre of mass: the loop a person draws around a map."""
    cx = sum(x for x, _ in coords) / len(coords)
    cy = sum(y for _, y in coords) / len(coords)
    return sorted(range(1, len(coords) + 1), key=lambda k: (math.atan2(coords[k - 1][1] - cy,
                                                                       coords[k - 1][0] - cx), k))


def each_heuristic_tour(coords: list[list[int]], dist: list[list[int]]) -> Iterator[tuple[str, list[int]]]:
    """Every heuristic's (name, tour), lazily (a draw is rejected at the first tour as short as the best): per start
    k `nn<k>` (nearest neighbour), `nn<k>+2opt`, `nn<k>+oropt` (2-opt and Or-opt over the neighbour lists,
    `search.local_search`, from that 2-opt tour); then `order`, `sweep` and their `+2opt`. Every start is
    covered, so a lazy policy's random start lands on one of these tours."""
    n = len(dist)
    near = neighbour_lists(dist)
    for k in range(1, n + 1):
        tour = nearest_neighbour(dist, k)
        yield f"nn{k}", tour
        tour = two_opt(tour, dist)
        yield f"nn{k}+2opt", tour
        yield f"nn{k}+oropt", local_search(tour, dist, near)
    for name, tour in (("order", list(range(1, n + 1))), ("sweep", sweep(coords))):
        yield name, tour
        yield f"{name}+2opt", two_opt(tour, dist)


def heuristic_tours(coords: list[list[int]], dist: list[list[int]]) -> dict[str, list[int]]:
    """Every heuristic's tour by name (`each_heuristic_tour`)."""
    return dict(each_heuristic_tour(coords, dist))


KINDS = ("", "+2opt", "+oropt")  # nearest neighbour, then 2-opt, then Or-opt, from every start
_known: OrderedDict[bytes, dict[str, Any]] = OrderedDict()
_known_lock = threading.Lock()
KNOWN_SIZE = 1024  # tasks whose summary is kept (a few hundred bytes each)


def _key(coords: list[list[int]], dist: list[list[int]]) -> bytes:
    return hashlib.blake2b(orjson.dumps([coords, dist]), digest_size=16).digest()


def remember(coords: list[list[int]], dist: list[list[int]], tours: dict[str, list[int]]) -> dict[str, Any]:
    """Keep what the floor and the every-start baselines read of a task's heuristic tours (all of
    `each_heuristic_tour`, e.g. as the generator walked them): the shortest length, and the shortest tour of each
    kind over every start (the lowest start on a tie)."""
    n = len(dist)
    summary: dict[str, Any] = {"floor": min(length(t, dist) for t in tours.values())}
    for kind in KINDS:
        summary[kind] = tuple(min((tours[f"nn{k}{kind}"] for k in range(1, n + 1)), key=lambda t: length(t, dist)))
    key = _key(coords, dist)
    with _known_lock:
        _known[key] = summary
        _known.move_to_end(key)
        if len(_known) > KNOWN_SIZE:
            _known.popitem(last=False)
    return summary


def _summary(coords: list[list[int]], dist: list[list[int]]) -> dict[str, Any]:
    """A task's summary (`remember`), the heuristics walked once per process for each task."""
    with _known_lock:
        found = _known.get(_key(coords, dist))
    return found if found is not None else remember(coords, dist, heuristic_tours(coords, dist))


def best_of(coords: list[list[int]], dist: list[list[int]], kind: str) -> list[int]:
    """The shortest of one heuristic over every start (`kind` "" for nearest neighbour, "+2opt" or "+oropt"),
    the lowest start on a tie."""
    return list(_summary(coords, dist)[kind])


def heuristic_floor(coords: list[list[int]], dist: list[list[int]]) -> int:
    """The shortest length any of the cheap heuristics reaches: the score's zero point."""
    return int(_summary(coords, dist)["floor"])
