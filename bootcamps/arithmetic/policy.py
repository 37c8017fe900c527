"""The reference policy: one calculator call per operation, every ready operation of a turn in parallel, then the
result; after "incorrect" feedback it starts again from the expression (a recheck, not a copy of its old steps)."""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from bc_common.bootcamp import ReferencePolicy, tool_call
from bc_common.safe_eval import format_number, parse_number, safe_eval

from .steps import operations, step_text


def answer_text(value: Fraction) -> str:
    number = str(value.numerator) if value.denominator == 1 else repr(float(value))
    return f"The result is:\n```json\n{{\"result\": {number}}}\n```"


def this_attempt(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The messages since the last user message (the prompt or the latest feedback)."""
    last_user = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=-1)
    return messages[last_user + 1:]


class ArithmeticPolicy(ReferencePolicy):
    """`wrong=True` misreads the first operand of its first call this turn (the slip carries to the result), or
    the result it reports: off by 1% or by 1, whichever is more (beyond any tolerance the tasks use)."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        expression = self.identity["expression"]
        if "calculate" not in self.tools:
            value = safe_eval(expression)
            return {"role": "assistant", "content": answer_text(_slip(value) if wrong else value)}
        ops = operations(expression)
        attempt = sum(m.get("role") == "user" for m in messages)  # in the call ids: the loop keeps ids unique
        results = {m.get("tool_call_id"): m.get("content") for m in this_attempt(messages) if m.get("role") == "tool"}
        known = {id(op): format_number(parse_number(results[f"call_{attempt}_{i}"]), 17)
                 for i, op in enumerate(ops) if parse_number(results.get(f"call_{attempt}_{i}")) is not None}
        if ops and id(ops[-1]) in known:
            value = parse_number(known[id(ops[-1])])
            return {"role": "assistant", "content": answer_text(_slip(value) if wrong else value)}
        if not ops:  # a lone number
            value = safe_eval(expression)
            return {"role": "assistant", "content": answer_text(_slip(value) if wrong else value)}
        calls = []
        for i, op in enumerate(ops):
            step = None if id(op) in known else step_text(op, known)
            if step is not None:
                if wrong and not calls:
                    left, _, rest = step.partition(" ")
                    step = f"{_misread(left)} {rest}"
                calls.append(tool_call(f"call_{attempt}_{i}", "calculate", {"expression": step}))
        return {"role": "assistant", "content": "", "tool_calls": calls}


def _slip(value: Fraction) -> Fraction:
    return value + max(Fraction(1), abs(value) / 100)


def _misread(number: str) -> str:
    return format_number(_slip(parse_number(number.strip("()"))), 17)
