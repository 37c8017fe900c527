"""Baselines: the cheap tours a lazy policy finds first, up to 2-opt and Or-opt from every start. Each reads only
what the prompt shows (the cities); the reward pays none of them (their best is the score's zero point)."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import Baseline, ReferencePolicy, tool_call

from .generator import CHECKS
from .heuristics import best_of, length, nearest_neighbour, sweep, two_opt
from .policy import answer_text
from .search import local_search
from .solver import matrix


class _FixedTour(ReferencePolicy):
    """Answers one tour computed from the visible cities, without the tool."""

    def tour(self, coords: list[list[int]], dist: list[list[int]]) -> list[int]:
        raise NotImplementedError

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        coords = self.identity["coords"]
        return {"role": "assistant", "content": answer_text(self.tour(coords, matrix(coords)), None)}


class OrderPolicy(_FixedTour):
    def tour(self, coords: list[list[int]], dist: list[list[int]]) -> list[int]:
        return list(range(1, len(coords) + 1))


class NearestNeighbourPolicy(_FixedTour):
    def tour(self, coords: list[list[int]], dist: list[list[int]]) -> list[int]:
        return nearest_neighbour(dist, 1)


class BestNearestNeighbourPolicy(_FixedTour):
    def tour(self, coords: list[list[int]], dist: list[list[int]]) -> list[int]:
        return best_of(coords, dist, "")


class TwoOptPolicy(_FixedTour):
    def tour(self, coords: list[list[int]], dist: list[list[int]]) -> list[int]:
        return two_opt(nearest_neighbour(dist, 1), dist)


class RandomStartTwoOptPolicy(_FixedTour):
    """Nearest neighbour from a random city, then 2-opt: what a lazy search would try first."""

    def tour(self, coords: list[list[int]], dist: list[list[int]]) -> list[int]:
        return two_opt(nearest_neighbour(dist, self.rng.randint(1, len(dist))), dist)


class EveryStartTwoOptPolicy(_FixedTour):
    def tour(self, coords: list[list[int]], dist: list[list[int]]) -> list[int]:
        return best_of(coords, dist, "+2opt")


class OrOptPolicy(_FixedTour):
    """Nearest neighbour from a random city, 2-opt, then 2-opt and Or-opt moves until none helps."""

    def tour(self, coords: list[list[int]], dist: list[list[int]]) -> list[int]:
        return local_search(two_opt(nearest_neighbour(dist, self.rng.randint(1, len(dist))), dist), dist)


class EveryStartOrOptPolicy(_FixedTour):
    def tour(self, coords: list[list[int]], dist: list[list[int]]) -> list[int]:
        return best_of(coords, dist, "+oropt")


class SweepPolicy(_FixedTour):
    def tour(self, coords: list[list[int]], dist: list[list[int]]) -> list[int]:
        return sweep(coords)


class ToolSearchPolicy(ReferencePolicy):
    """Spends the `tour_length` budget on random tours (all in one turn), then answers the shortest: the tool
    used as a blind search."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        dist = matrix(self.identity["coords"])
        n = len(dist)
        if not any(m.get("role") == "assistant" for m in messages) and "tour_length" in self.tools:
            tries = [[1, *self.rng.sample(range(2, n + 1), n - 1)] for _ in range(CHECKS)]
            return {"role": "assistant", "content": "Trying a few tours.",
                    "tool_calls": [tool_call(f"call_{k}", "tour_length", {"tour": t}) for k, t in enumerate(tries)]}
        import orjson

        tried = [orjson.loads(c["function"]["arguments"])["tour"] for m in messages if m.get("role") == "assistant"
                 for c in m.get("tool_calls") or []] or [list(range(1, n + 1))]
        return {"role": "assistant", "content": answer_text(min(tried, key=lambda t: length(t, dist)), None)}


BASELINES = [
    Baseline("order", OrderPolicy, "the cities in number order"),
    Baseline("nearest", NearestNeighbourPolicy, "nearest neighbour from city 1"),
    Baseline("nearest_best", BestNearestNeighbourPolicy, "nearest neighbour from every start, the shortest"),
    Baseline("two_opt", TwoOptPolicy, "nearest neighbour from city 1, then 2-opt until no reversal helps"),
    Baseline("two_opt_random", RandomStartTwoOptPolicy, "nearest neighbour from a random city, then 2-opt"),
    Baseline("two_opt_all", EveryStartTwoOptPolicy, "2-opt from the nearest-neighbour tour of every start, the "
                                                    "shortest"),
    Baseline("or_opt", OrOptPolicy, "nearest neighbour from a random city, 2-opt, then 2-opt and Or-opt moves"),
    Baseline("or_opt_all", EveryStartOrOptPolicy, "2-opt and Or-opt from every nearest-neighbour start, the shortest"),
    Baseline("sweep", SweepPolicy, "cities by angle around their centre"),
    Baseline("tool_search", ToolSearchPolicy, "the tool's checks spent on random tours, the shortest answered"),
]
