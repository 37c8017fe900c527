"""The reference policy: solves the puzzle, checks the grid with `check` when offered, answers."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import ReferencePolicy, tool_call

from .grid import to_cells, to_rows
from .solver import solutions


def swap_two(rows: list[str], givens: list[str]) -> list[str]:
    """The grid with two cells of one row swapped (empty ones where there are two): two columns repeat."""
    r, a, b = 0, 0, 1
    for k, given in enumerate(givens):
        empty = [c for c, ch in enumerate(given) if ch == "."]
        if len(empty) >= 2:
            r, (a, b) = k, empty[:2]
            break
    row = list(rows[r])
    row[a], row[b] = row[b], row[a]
    return rows[:r] + ["".join(row)] + rows[r + 1:]


class SudokuPolicy(ReferencePolicy):
    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        givens = self.identity["givens"]
        found = solutions(to_cells(givens), 1)
        if not found:  # generation proves a unique solution; a hand-made identity may have none
            return {"role": "assistant", "content": "This sudoku has no solution."}
        rows = to_rows(found[0])
        checked = next((m.get("content") for m in reversed(messages) if m.get("role") == "tool"), None)
        if "check" in self.tools and checked is None:
            return {"role": "assistant", "content": "Let me check my grid.",
                    "tool_calls": [tool_call("call_0", "check", {"rows": rows})]}
        if wrong:
            rows = swap_two(rows, givens)
        grid = "\n".join(rows)
        return {"role": "assistant", "content": f"<answer>\n{grid}\n</answer>"}
