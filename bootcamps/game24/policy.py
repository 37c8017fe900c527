"""The reference policy: solves the puzzle, checks its expression with `calculate` when offered, answers."""
from __future__ import annotations

import re
from typing import Any

from bc_common.bootcamp import ReferencePolicy, tool_call

from .solver import solve


def wrong_expression(expression: str) -> str:
    """The same expression with its last number raised by one: it no longer uses the given numbers."""
    last = list(re.finditer(r"[0-9]+", expression))[-1]
    return expression[:last.start()] + str(int(last.group()) + 1) + expression[last.end():]


class Game24Policy(ReferencePolicy):
    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        expression = solve(self.identity["numbers"], self.identity["target"])
        if expression is None:  # generation proves every puzzle solvable; a hand-made identity may not be
            return {"role": "assistant", "content": "I found no expression that makes the target."}
        checked = next((m.get("content") for m in reversed(messages) if m.get("role") == "tool"), None)
        if "calculate" in self.tools and checked is None:
            return {"role": "assistant", "content": "Let me check my expression.",
                    "tool_calls": [tool_call("call_0", "calculate", {"expression": expression})]}
        if wrong:
            expression = wrong_expression(expression)
        note = f"The calculator gives {checked}. " if checked is not None else ""
        return {"role": "assistant", "content": f"{note}<answer>{expression}</answer>"}
