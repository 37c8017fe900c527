"""An exact sudoku solver that counts solutions up to a limit: bitmask candidates, the cell with the fewest
candidates first. It proves uniqueness (a count of 1 at limit 2) and, with shuffled digits, fills random grids.
"""
from __future__ import annotations

from collections.abc import Callable

from .grid import BOX, COL, ROW

ALL = 0x1FF  # digits 1-9 as bits 0-8
_DIGITS = [[d + 1 for d in range(9) if m >> d & 1] for m in range(512)]


def solutions(cells: list[int], limit: int = 2, order: Callable[[list[int]], list[int]] | None = None,
              forbid: tuple[int, int] | None = None) -> list[list[int]]:
    """Up to `limit` completions of `cells` (81 ints, 0 = empty). `order` reorders each cell's digits (a seeded
    shuffle gives a random full grid from an empty one); `forbid=(cell, digit)` rules that digit out there.
    Givens that clash already give []."""
    forbid_cell, forbid_bit = (forbid[0], 1 << (forbid[1] - 1)) if forbid else (-1, 0)
    rows, cols, boxes = [0] * 9, [0] * 9, [0] * 9
    grid = list(cells)
    for i, v in enumerate(grid):
        if v:
            bit = 1 << (v - 1)
            if (rows[ROW[i]] | cols[COL[i]] | boxes[BOX[i]]) & bit:
                return []
            rows[ROW[i]] |= bit
            cols[COL[i]] |= bit
            boxes[BOX[i]] |= bit
    empties = [i for i, v in enumerate(grid) if not v]
    found: list[list[int]] = []

    def search(k: int) -> None:
        if k == len(empties):
            found.append(list(grid))
            return
        best, best_mask, best_count = k, 0, 10
        for t in range(k, len(empties)):  # bring the most constrained empty cell to position k
            i = empties[t]
            mask = ALL & ~(rows[ROW[i]] | cols[COL[i]] | boxes[BOX[i]])
            if i == forbid_cell:
                mask &= ~forbid_bit
            count = mask.bit_count()
            if count < best_count:
                best, best_mask, best_count = t, mask, count
                if count <= 1:
                    break
        if best_count == 0:
            return
        empties[k], empties[best] = empties[best], empties[k]
        i = empties[k]
        r, c, b = ROW[i], COL[i], BOX[i]
        digits = _DIGITS[best_mask]
        if order is not None:
            digits = order(list(digits))
        for d in digits:
            bit = 1 << (d - 1)
            grid[i] = d
            rows[r] |= bit
            cols[c] |= bit
            boxes[b] |= bit
            search(k + 1)
            rows[r] ^= bit
            cols[c] ^= bit
            boxes[b] ^= bit
            grid[i] = 0
            if len(found) >= limit:
                break
        empties[k], empties[best] = empties[best], empties[k]

    search(0)
    return found


def count_solutions(cells: list[int], limit: int = 2) -> int:
    """How many completions, counting no further than `limit`."""
    return len(solutions(cells, limit))
