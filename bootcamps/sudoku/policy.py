"""The reference policy: solves the puzzle, checks the grid with `check` when offered, answers."""
from __future__ import annotations

from bc_common.grids import GridPolicy

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


class SudokuPolicy(GridPolicy):
    check_tool = "check"

    def solve(self) -> list[str] | None:
        found = solutions(to_cells(self.identity["givens"]), 1)
        return to_rows(found[0]) if found else None

    def corrupt(self, rows: list[str]) -> list[str]:
        return swap_two(rows, self.identity["givens"])
