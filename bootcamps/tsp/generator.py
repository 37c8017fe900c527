"""Travelling-salesman tasks: n cities at distinct integer points, the full distance table, the exact optimum."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bc_common.bootcamp import InstructionGenerator

from .solver import held_karp, matrix

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
The score is the shortest possible length divided by your tour's length: 1.0 only for a shortest tour, 0 for \
a list that does not visit every city exactly once."""

TOOL_NOTE = "You can check a tour's length with the `tour_length` tool. "


@dataclass
class TspConfig:
    min_cities: int = 8
    max_cities: int = 10
    grid: int = 100  # coordinates are integers in [0, grid]

    def validate(self) -> None:
        if not 4 <= self.min_cities <= self.max_cities <= 15:
            raise ValueError("need 4 <= min_cities <= max_cities <= 15 (the optimum is computed exactly: "
                             "Held-Karp doubles its time with every city)")
        if not 10 <= self.grid <= 10_000:
            raise ValueError("grid must be between 10 and 10000")
        if (self.grid + 1) ** 2 < 4 * self.max_cities:
            raise ValueError("grid too small for that many distinct cities")


class TspInstructionGenerator(InstructionGenerator):
    """Identity: {coords, optimum, tour}: the cities, the shortest tour length and one shortest tour (for the
    reference policy; the verifier checks lengths, so every shortest tour scores 1.0)."""

    Config = TspConfig

    def case_generator(self) -> dict[str, Any]:
        n = self.rng.randint(self.min_cities, self.max_cities)
        side = self.grid + 1
        coords = [[p // side, p % side] for p in self.rng.sample(range(side * side), n)]
        optimum, tour = held_karp(matrix(coords))
        return {"coords": coords, "optimum": optimum, "tour": tour}

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
