"""The binairo (takuzu) rules, in one place for the verifier, the `check_grid` tool and the generator.

An n×n grid (n even) of 0s and 1s is solved when: (1) every row and every column holds n/2 zeros and n/2 ones;
(2) no row or column has three equal cells side by side; (3) no two rows are equal and no two columns are
equal; and (4) every given cell keeps its value.
"""
from __future__ import annotations

EMPTY = "."
RULES = {
    "balance": "every row and column has as many 0s as 1s",
    "three_in_a_row": "no three equal cells side by side in a row or column",
    "unique_lines": "no two rows are equal and no two columns are equal",
    "givens": "the given cells keep their values",
}


def columns(rows: list[str]) -> list[str]:
    return ["".join(col) for col in zip(*rows, strict=True)]


def violations(rows: list[str], givens: list[str]) -> list[str]:
    """Every broken rule, as sentences naming the row or column (1-based); [] for a solved grid. Empty cells
    ('.') are allowed here (a partial grid is checked as far as it goes) and reported last."""
    n = len(givens)
    if len(rows) != n or any(len(r) != n for r in rows):
        return [f"the grid must be {n} rows of {n} cells"]
    if any(c not in "01." for r in rows for c in r):
        return ["cells must be 0, 1 or . (empty)"]
    found = []
    for i, (row, given) in enumerate(zip(rows, givens, strict=True)):
        for j, (cell, g) in enumerate(zip(row, given, strict=True)):
            if g != EMPTY and cell != g:
                found.append(f"givens: row {i + 1}, column {j + 1} must stay {g}")
    for kind, lines in (("row", rows), ("column", columns(rows))):
        for i, line in enumerate(lines):
            for digit in "01":
                if line.count(digit) > n // 2:
                    found.append(f"balance: {kind} {i + 1} has more than {n // 2} {digit}s")
            for digit in "01":
                if digit * 3 in line:
                    found.append(f"three_in_a_row: {kind} {i + 1} has {digit}{digit}{digit}")
        seen: dict[str, int] = {}
        for i, line in enumerate(lines):
            if EMPTY in line:
                continue
            if line in seen:
                found.append(f"unique_lines: {kind}s {seen[line] + 1} and {i + 1} are equal")
            else:
                seen[line] = i
    empty = sum(r.count(EMPTY) for r in rows)
    if empty:
        found.append(f"incomplete: {empty} empty cells")
    return found
