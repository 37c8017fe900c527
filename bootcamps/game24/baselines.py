"""Baselines: the cheap answers a lazy policy finds first. Each reads only the numbers and the target; none is
worth more than the rare puzzle it happens to fit."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import Baseline, ReferencePolicy, tool_call

from .generator import CHECKS


def random_expression(numbers: list[int], rng: Any) -> str:
    """Every number once, joined pairwise in random order with random operations."""
    items = [str(n) for n in numbers]
    while len(items) > 1:
        i, j = sorted(rng.sample(range(len(items)), 2), reverse=True)
        a, b = items.pop(i), items.pop(j)
        items.append(f"({a} {rng.choice('+-*/')} {b})")
    return items[0][1:-1] if len(numbers) > 1 else items[0]


def answer(expression: str) -> dict[str, Any]:
    return {"role": "assistant", "content": f"<answer>{expression}</answer>"}


class SumPolicy(ReferencePolicy):
    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        return answer(" + ".join(map(str, self.identity["numbers"])))


class TemplatePolicy(ReferencePolicy):
    """The most frequent shape of a 24-game answer: the larger numbers added, the smallest taken away."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        *big, small = sorted(self.identity["numbers"], reverse=True)
        return answer(" + ".join(map(str, big)) + f" - {small}")


class RandomExpressionPolicy(ReferencePolicy):
    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        return answer(random_expression(self.identity["numbers"], self.rng))


class CalculatorSearchPolicy(ReferencePolicy):
    """Spends the `calculate` budget on random expressions (all in one turn), then answers one the calculator
    said makes the target, or else the first: the tool used as a blind search."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        numbers, target = self.identity["numbers"], self.identity["target"]
        asked = [c for m in messages if m.get("role") == "assistant" for c in m.get("tool_calls") or []]
        if not asked and "calculate" in self.tools:
            tries = [random_expression(numbers, self.rng) for _ in range(CHECKS)]
            return {"role": "assistant", "content": "Let me try a few.",
                    "tool_calls": [tool_call(f"call_{k}", "calculate", {"expression": e}) for k, e in enumerate(tries)]}
        import orjson

        replies = {m.get("tool_call_id"): str(m.get("content") or "") for m in messages if m.get("role") == "tool"}
        tried = [(orjson.loads(c["function"]["arguments"])["expression"], replies.get(c["id"], "")) for c in asked]
        hit = next((e for e, said in tried if said.split(" ")[0] == str(target)), None)
        return answer(hit or (tried[0][0] if tried else random_expression(numbers, self.rng)))


BASELINES = [
    Baseline("sum", SumPolicy, "every number added"),
    Baseline("template", TemplatePolicy, "the larger numbers added, the smallest subtracted"),
    Baseline("random", RandomExpressionPolicy, "every number once, random pairing and operations"),
    Baseline("calculator_search", CalculatorSearchPolicy, "the calculator's budget spent on random expressions"),
]
