"""The reference policy: checks a shortest tour with `tour_length`, then answers with it (or a longer one)."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import ReferencePolicy, tool_call

from .solver import held_karp, matrix, tour_length


def answer_text(tour: list[int], length: int | None) -> str:
    said = f"This tour has length {length}.\n" if length is not None else ""
    return f"{said}```json\n{{\"tour\": [{', '.join(map(str, tour))}]}}\n```"


class TspPolicy(ReferencePolicy):
    """Uses the identity's shortest tour (Held–Karp when the identity has none). `wrong=True` answers a longer
    tour: two neighbouring cities swapped, or the cities in number order."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        tour = self._tour(wrong)
        reported = _last_length(messages)
        if "tour_length" in self.tools and reported is None:
            return {"role": "assistant", "content": "Let me check the length of this tour.",
                    "tool_calls": [tool_call("call_0", "tour_length", {"tour": tour})]}
        return {"role": "assistant", "content": answer_text(tour, reported)}

    def _tour(self, wrong: bool) -> list[int]:
        dist = matrix(self.identity["coords"])
        tour = list(self.identity.get("tour") or held_karp(dist)[1])
        if not wrong:
            return tour
        best = tour_length(tour, dist)
        for i in range(len(tour) - 1):
            swapped = tour[:i] + [tour[i + 1], tour[i]] + tour[i + 2:]
            if tour_length(swapped, dist) > best:
                return swapped
        return list(range(1, len(tour) + 1)) + [1, 1]  # every tour is shortest: answer a non-tour


def _last_length(messages: list[dict[str, Any]]) -> int | None:
    for msg in reversed(messages):
        if msg.get("role") == "tool":
            text = str(msg.get("content") or "")
            if text.startswith("Tour length: "):
                return int(text.split(": ", 1)[1])
            return None
    return None
