"""The reference policy: solves the puzzle, checks the grid with `check_grid` when offered, answers."""
from __future__ import annotations

from bc_common.grids import GridPolicy

from .solver import solutions


def flip_one(rows: list[str], givens: list[str]) -> list[str]:
    """The grid with one cell flipped (an empty one when there is one): a row loses its balance."""
    cells = [(i, j) for i, row in enumerate(givens) for j, c in enumerate(row) if c == "."] or [(0, 0)]
    i, j = cells[0]
    row = rows[i]
    return rows[:i] + [row[:j] + ("1" if row[j] == "0" else "0") + row[j + 1:]] + rows[i + 1:]


class BinairoPolicy(GridPolicy):
    check_tool = "check_grid"

    def solve(self) -> list[str] | None:
        found = solutions(self.identity["givens"], 1)
        return found[0] if found else None

    def corrupt(self, rows: list[str]) -> list[str]:
        return flip_one(rows, self.identity["givens"])
