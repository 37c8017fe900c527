"""9x9 sudoku geometry and rules: units, peers, and the violations of a (partial) grid against its givens.

A grid is solved when every row, column and 3x3 box holds 1-9 once each and every given keeps its digit.
"""
from __future__ import annotations

N = 9
ROW = [i // 9 for i in range(81)]
COL = [i % 9 for i in range(81)]
BOX = [(i // 27) * 3 + (i % 9) // 3 for i in range(81)]
UNITS: list[list[int]] = (
    [[r * 9 + c for c in range(9)] for r in range(9)]
    + [[r * 9 + c for r in range(9)] for c in range(9)]
    + [[(b // 3) * 27 + (b % 3) * 3 + (k // 3) * 9 + k % 3 for k in range(9)] for b in range(9)]
)
UNIT_NAMES = [f"row {k + 1}" for k in range(9)] + [f"column {k + 1}" for k in range(9)] + [
    f"box {k + 1}" for k in range(9)]
PEERS: list[list[int]] = [
    sorted({j for j in range(81) if j != i and (ROW[j] == ROW[i] or COL[j] == COL[i] or BOX[j] == BOX[i])})
    for i in range(81)
]
EMPTY = "."


def to_cells(rows: list[str]) -> list[int]:
    """Rows of digits and '.' -> 81 ints (0 for empty)."""
    return [0 if ch == EMPTY else int(ch) for row in rows for ch in row]


def to_rows(cells: list[int]) -> list[str]:
    return ["".join(str(v) if v else EMPTY for v in cells[r * 9:(r + 1) * 9]) for r in range(9)]


def violations(rows: list[str], givens: list[str]) -> list[str]:
    """Every broken rule as sentences (1-based rows, columns, boxes numbered left to right, top to bottom);
    [] for a solved grid. Empty cells ('.') are allowed here and reported last."""
    if len(rows) != 9 or any(len(r) != 9 for r in rows):
        return ["the grid must be 9 rows of 9 cells"]
    if any(ch not in "123456789." for r in rows for ch in r):
        return ["cells must be digits 1-9 or . (empty)"]
    found = []
    for r in range(9):
        for c in range(9):
            g = givens[r][c]
            if g != EMPTY and rows[r][c] != g:
                found.append(f"givens: row {r + 1}, column {c + 1} must stay {g}")
    cells = to_cells(rows)
    for name, unit in zip(UNIT_NAMES, UNITS, strict=True):
        digits = [cells[i] for i in unit if cells[i]]
        repeated = sorted({d for d in digits if digits.count(d) > 1})
        if repeated:
            found.append(f"repeat: {name} has {', '.join(map(str, repeated))} more than once")
    empty = cells.count(0)
    if empty:
        found.append(f"incomplete: {empty} empty cells")
    return found
