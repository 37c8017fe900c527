"""Travelling-salesman tasks: n cities at distinct integer points, the full distance table, the best known tour.

The best known tour is what a strong search finds (`search.iterated_local_search`: 2-opt and Or-opt with
double-bridge kicks, 20 kicks per city). A task is kept only when every cheap heuristic (`heuristics.py`: number
order, sweep, nearest neighbour, 2-opt and Or-opt from every start) falls short of it by a margin; the score is the
share of that gap a tour closes."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bc_common.bootcamp import InstructionGenerator
from bc_common.errors import ConfigError

from .heuristics import each_heuristic_tour, heuristic_floor, length, nearest_neighbour, remember, two_opt
from .search import iterated_local_search
from .solver import matrix

MAX_DRAWS = 300  # draws before giving up; the groups keep about 1 draw in 4-10 (local search finds most optima)
QUICK_KICKS, KICKS = 1, 20  # kicks per city: a short search rejects most draws, the long one sets the best known
MARGIN = 0.002  # every heuristic is longer than the best known by at least this share of it (and by 1 or more)
CHECKS = 3  # `tour_length` calls a task allows: enough to check an answer, too few to search with

PROMPT = """Plan the shortest round trip that visits each of {n} cities exactly once and returns to the city it \
started from.

City coordinates:
{cities}

Distances (Euclidean, rounded to the nearest integer):
{table}

The tour length is the sum of the distances between consecutive cities, including the way back to the start. \
{tool}Give your final answer as a JSON object listing every city once, in visiting order:
```json
{{"tour": [{example}]}}
```
The score is the share of the gap you close between what simple heuristics reach (nearest neighbour, 2-opt and \
Or-opt from every start) and the best tour a long search found: 1.0 for a tour at least as short as that one, 0 \
for a tour no shorter than the heuristics' or a list that does not visit every city exactly once."""

TOOL_NOTE = f"You can check the length of up to {CHECKS} tours with the `tour_length` tool. "


@dataclass
class TspConfig:
    min_cities: int = 30
    max_cities: int = 36
    grid: int = 300  # coordinates are integers in [0, grid]

    def validate(self) -> None:
        if not 25 <= self.min_cities <= self.max_cities <= 60:
            raise ValueError("need 25 <= min_cities <= max_cities <= 60 (below 25 cities the cheap heuristics "
                             "find the best tour of almost every draw; above 60 the prompt's table is too long)")
        if not 100 <= self.grid <= 10_000:
            raise ValueError("grid must be between 100 and 10000")
        if (self.grid + 1) ** 2 < 4 * self.max_cities:
            raise ValueError("grid too small for that many distinct cities")


def _all_above(coords: list[list[int]], dist: list[list[int]], bar: float) -> bool:
    """Whether every heuristic tour is at least `bar` long, stopping at the first that is not; when all are, they
    are kept (`remember`): the floor, and the baselines that replay these heuristics, read them back."""
    tours = {}
    for name, tour in each_heuristic_tour(coords, dist):
        if length(tour, dist) < bar:
            return False
        tours[name] = tour
    remember(coords, dist, tours)
    return True


class TspInstructionGenerator(InstructionGenerator):
    """Identity: {coords, best, floor, tour}: the cities, the best known tour length, the heuristics' best length
    (longer by the margin) and the best known tour (for the reference policy; the verifier checks lengths, so
    every tour at least as short scores 1.0)."""

    Config = TspConfig

    def case_generator(self) -> dict[str, Any]:
        side = self.grid + 1
        for _ in range(MAX_DRAWS):
            n = self.rng.randint(self.min_cities, self.max_cities)
            coords = [[p // side, p % side] for p in self.rng.sample(range(side * side), n)]
            dist = matrix(coords)
            # a short search sets the bar first, so most draws are rejected at the first heuristic tour that
            # reaches it (the long search and the full floor run only on draws that are kept)
            tour = iterated_local_search(two_opt(nearest_neighbour(dist, 1), dist), dist, self.rng, QUICK_KICKS * n)
            bar = length(tour, dist) + max(1, MARGIN * length(tour, dist))
            if not _all_above(coords, dist, bar):
                continue
            floor = heuristic_floor(coords, dist)
            tour = iterated_local_search(tour, dist, self.rng, KICKS * n)
            best = length(tour, dist)
            if floor - best >= max(1, MARGIN * best):
                return {"coords": coords, "best": best, "floor": floor, "tour": tour}
        raise ConfigError(f"no task in {MAX_DRAWS} draws where the heuristics fall short of the best known tour: "
                          "use more cities")

    def prompt_func(self, identity: dict[str, Any]) -> str:
        coords = identity["coords"]
        n = len(coords)
        dist = matrix(coords)
        width = max(len(str(n)), *(len(str(x)) for row in dist for x in row))
        header = " " * (len(str(n)) + 1) + " ".join(f"{j:>{width}}" for j in range(1, n + 1))
        rows = [f"{i:>{len(str(n))}} " + " ".join(f"{x:>{width}}" for x in dist[i - 1]) for i in range(1, n + 1)]
        cities = "\n".join(f"{i}: ({x}, {y})" for i, (x, y) in enumerate(coords, start=1))
        return PROMPT.format(n=n, cities=cities, table="\n".join([header, *rows]), tool=TOOL_NOTE,
                             example=", ".join(["c1", "c2", "...", f"c{n}"]))
