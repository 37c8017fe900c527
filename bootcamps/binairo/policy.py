"""The reference policy: solves the puzzle, checks the grid with `check_grid` when offered, answers."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import ReferencePolicy, tool_call

from .solver import solutions


def flip_one(rows: list[str], givens: list[str]) -> list[str]:
    """The grid with one cell flipped (an empty one when there is one): a row loses its balance."""
    cells = [(i, j) for i, row in enumerate(givens) for j, c in enumerate(row) if c == "."] or [(0, 0)]
    i, j = cells[0]
    row = rows[i]
    return rows[:i] + [row[:j] + ("1" if row[j] == "0" else "0") + row[j + 1:]] + rows[i + 1:]


class BinairoPolicy(ReferencePolicy):
    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        givens = self.identity["givens"]
        found = solutions(givens, 1)
        if not found:  # generation proves a unique solution; a hand-made identity may have none
            return {"role": "assistant", "content": "This puzzle has no solution."}
        rows = found[0]
        checked = next((m.get("content") for m in reversed(messages) if m.get("role") == "tool"), None)
        if "check_grid" in self.tools and checked is None:
            return {"role": "assistant", "content": "Let me check my grid.",
                    "tool_calls": [tool_call("call_0", "check_grid", {"rows": rows})]}
        if wrong:
            rows = flip_one(rows, givens)
        grid = "\n".join(rows)
        return {"role": "assistant", "content": f"<answer>\n{grid}\n</answer>"}
