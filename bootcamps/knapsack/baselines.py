"""Baselines: the cheap strategies a lazy policy finds first. Each reads only what the prompt shows (weights,
values, capacity); the reward pays none of them (their best is the score's zero point, or they are infeasible)."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import Baseline, ReferencePolicy, tool_call

from .generator import CHECKS
from .heuristics import by_ratio, by_value, greedy_fill, improve
from .policy import answer_text
from .solver import selection_problem, totals


class _FixedSelection(ReferencePolicy):
    """Answers one selection computed from the visible items, without the tool."""

    def selection(self, weights: list[int], values: list[int], capacity: int) -> list[int]:
        raise NotImplementedError

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        ident = self.identity
        items = self.selection(ident["weights"], ident["values"], ident["capacity"])
        return {"role": "assistant", "content": f"My selection:\n{answer_text(items)}"}


class GreedyRatioPolicy(_FixedSelection):
    def selection(self, weights: list[int], values: list[int], capacity: int) -> list[int]:
        return greedy_fill(weights, values, capacity, by_ratio(weights, values))


class GreedyValuePolicy(_FixedSelection):
    def selection(self, weights: list[int], values: list[int], capacity: int) -> list[int]:
        return greedy_fill(weights, values, capacity, by_value(weights, values))


class SwapsPolicy(_FixedSelection):
    def selection(self, weights: list[int], values: list[int], capacity: int) -> list[int]:
        return improve(greedy_fill(weights, values, capacity, by_ratio(weights, values)), weights, values, capacity)


class EverythingPolicy(_FixedSelection):
    def selection(self, weights: list[int], values: list[int], capacity: int) -> list[int]:
        return list(range(1, len(weights) + 1))


class ToolSearchPolicy(ReferencePolicy):
    """Spends the `evaluate_selection` budget on random selections (all in one turn), then answers the most
    valuable one that fit: the tool used as a blind search."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        ident = self.identity
        weights, values, capacity = ident["weights"], ident["values"], ident["capacity"]
        if not any(m.get("role") == "assistant" for m in messages) and "evaluate_selection" in self.tools:
            n = len(weights)
            tries = [sorted(self.rng.sample(range(1, n + 1), self.rng.randint(1, n))) for _ in range(CHECKS)]
            return {"role": "assistant", "content": "Trying a few selections.",
                    "tool_calls": [tool_call(f"call_{k}", "evaluate_selection", {"items": items})
                                   for k, items in enumerate(tries)]}
        tried = [_items(call) for m in messages if m.get("role") == "assistant" for call in m.get("tool_calls") or []]
        feasible = [t for t in tried if selection_problem(t, weights, capacity) is None] or [[]]
        best = max(feasible, key=lambda t: totals(t, weights, values)[1])
        return {"role": "assistant", "content": f"My selection:\n{answer_text(best)}"}


def _items(call: dict[str, Any]) -> list[int]:
    import orjson

    return list(orjson.loads(call["function"]["arguments"])["items"])


BASELINES = [
    Baseline("greedy", GreedyRatioPolicy, "items by value/weight ratio while they fit"),
    Baseline("greedy_value", GreedyValuePolicy, "the most valuable items first while they fit"),
    Baseline("swaps", SwapsPolicy, "ratio greedy, then one-item swaps while they raise the value"),
    Baseline("everything", EverythingPolicy, "every item (over the capacity)"),
    Baseline("tool_search", ToolSearchPolicy, "the tool's checks spent on random selections, the best answered"),
]
