"""Baselines: answers from the question's text alone, and from the legend alone (the names, never the values)."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import ReferencePolicy


class TextOnly(ReferencePolicy):
    """Baseline: never looks at the picture: 0 for a difference (the names it gives, the same value), else the
    first series name the question states, else 0."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        question = self.identity["question"]
        answer = "0" if question["type"] == "difference" else question.get("a", "0")
        return {"role": "assistant", "content": f"<answer>{answer}</answer>"}


class LegendFirst(ReferencePolicy):
    """Baseline: reads only the legend: the first series at a middling 50 for "largest", the first series rising
    by 40 for "trend", 0 for a difference."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        question, first = self.identity["question"], self.identity["series"][0]["name"]
        answer = {"largest": f"{first} 50", "trend": f"{first} increasing 40"}.get(question["type"], "0")
        return {"role": "assistant", "content": f"<answer>{answer}</answer>"}
