"""The reference policy: checks the best known tour with `tour_length`, then answers with it (or a longer one)."""
from __future__ import annotations

import random
from typing import Any

from bc_common.bootcamp import ReferencePolicy, tool_call

from .heuristics import heuristic_tours, length
from .search import iterated_local_search
from .solver import held_karp, matrix, tour_length

EXACT_UP_TO = 12  # Held-Karp for a hand-made identity without a tour up to this many cities, else the search


def answer_text(tour: list[int], length: int | None) -> str:
    said = f"This tour has length {length}.\n" if length is not None else ""
    return f"{said}```json\n{{\"tour\": [{', '.join(map(str, tour))}]}}\n```"


class TspPolicy(ReferencePolicy):
    """Uses the identity's best known tour (for a hand-made identity without one: Held–Karp on small tasks, the
    generator's search on others). `wrong=True` answers a longer tour: two neighbouring cities swapped, or the
    cities in number order."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        tour = self._tour(wrong)
        reported = _last_length(messages)
        if "tour_length" in self.tools and reported is None:
            return {"role": "assistant", "content": "Let me check the length of this tour.",
                    "tool_calls": [tool_call("call_0", "tour_length", {"tour": tour})]}
        return {"role": "assistant", "content": answer_text(tour, reported)}

    def _tour(self, wrong: bool) -> list[int]:
        dist = matrix(self.identity["coords"])
        tour = list(self.identity.get("tour") or _search(self.identity["coords"], dist))
        if not wrong:
            return tour
        best = tour_length(tour, dist)
        for i in range(len(tour) - 1):
            swapped = tour[:i] + [tour[i + 1], tour[i]] + tour[i + 2:]
            if tour_length(swapped, dist) > best:
                return swapped
        return list(range(1, len(tour) + 1)) + [1, 1]  # every tour is shortest: answer a non-tour


def _search(coords: list[list[int]], dist: list[list[int]]) -> list[int]:
    if len(dist) <= EXACT_UP_TO:
        return held_karp(dist)[1]
    start = min(heuristic_tours(coords, dist).values(), key=lambda t: length(t, dist))
    return iterated_local_search(start, dist, random.Random(0), 20 * len(dist))


def _last_length(messages: list[dict[str, Any]]) -> int | None:
    for msg in reversed(messages):
        if msg.get("role") == "tool":
            text = str(msg.get("content") or "")
            if text.startswith("Tour length: "):
                return int(text.split(": ", 1)[1])
            return None
    return None
