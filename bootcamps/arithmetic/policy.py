"""The reference policy: calls `calculate` once, then reports the tool's result (or computes it itself)."""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from bc_common.bootcamp import ReferencePolicy, tool_call
from bc_common.safe_eval import parse_number, safe_eval


def answer_text(value: Fraction) -> str:
    number = str(value.numerator) if value.denominator == 1 else repr(float(value))
    return f"The result is:\n```json\n{{\"result\": {number}}}\n```"


class ArithmeticPolicy(ReferencePolicy):
    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        called = any(m.get("role") == "tool" for m in messages)
        if "calculate" in self.tools and not called:
            calls = [tool_call("call_0", "calculate", {"expression": self.identity["expression"]})]
            return {"role": "assistant", "content": "", "tool_calls": calls}
        value = None
        for msg in reversed(messages):
            if msg.get("role") == "tool":
                value = parse_number(msg.get("content"))
                break
        if value is None:
            value = safe_eval(self.identity["expression"])
        if wrong:
            value = value + max(Fraction(1), abs(value) / 100)
        return {"role": "assistant", "content": answer_text(value)}
