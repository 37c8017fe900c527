"""Baselines: the cheap ways a model answers first, each repeated unchanged on every retry."""
from __future__ import annotations

import re
from typing import Any

from bc_common.bootcamp import ReferencePolicy, tool_call
from bc_common.safe_eval import parse_number

from .policy import answer_text, this_attempt

_NUMBER = re.compile(r"\d+")


class FirstNumber(ReferencePolicy):
    """Baseline: answers the expression's first number, no tools (copying the visible data)."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        first = _NUMBER.search(self.identity["expression"])
        return {"role": "assistant", "content": answer_text(parse_number(first.group() if first else "0"))}


class _OneCall(ReferencePolicy):
    """One `calculate` call on `request()`, then its result as the answer (the first number if it failed)."""

    def request(self) -> str:
        raise NotImplementedError

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        replies = [m for m in this_attempt(messages) if m.get("role") == "tool"]
        if "calculate" in self.tools and not replies:
            return {"role": "assistant", "content": "",
                    "tool_calls": [tool_call("call_0", "calculate", {"expression": self.request()})]}
        value = parse_number(replies[-1].get("content")) if replies else None
        if value is None:
            return FirstNumber(self.identity, tools=self.tools).respond(messages)
        return {"role": "assistant", "content": answer_text(value)}


class WholeExpression(_OneCall):
    """Baseline: passes the whole expression to the calculator once (the old reference), answers what it says."""

    def request(self) -> str:
        return self.identity["expression"]


class FirstSteps(_OneCall):
    """Baseline: one call on the first three numbers and their operators, parentheses dropped (what the calculator
    takes at once), and that as the answer."""

    def request(self) -> str:
        tokens = self.identity["expression"].replace("(", "").replace(")", "").split()
        return " ".join(tokens[:5])
