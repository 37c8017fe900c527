"""A binairo solver that counts solutions (up to a limit), for uniqueness proofs and random full grids.

Every row and column is one of the valid lines of length n (balanced, no three equal in a row). The solver
keeps, for each row and each column, the set of lines still possible (a bitset over the line table), and
propagates: a cell on which every candidate of its row agrees is fixed in its column, and the other way round;
a line fixed for one row is struck from the others (rows are distinct; columns likewise). Then it branches
on the row or column with the fewest candidates.
"""
from __future__ import annotations

import functools
from collections.abc import Callable


@functools.cache
def line_table(n: int) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...]]:
    """(lines, masks): every valid line of length n as an int (bit j = cell j), and for each position j the
    bitsets (over line indices) of the lines with a 0 and with a 1 there."""
    lines = []
    for value in range(1 << n):
        if value.bit_count() != n // 2:
            continue
        bits = [(value >> j) & 1 for j in range(n)]
        if any(bits[j] == bits[j + 1] == bits[j + 2] for j in range(n - 2)):
            continue
        lines.append(value)
    masks = []
    for j in range(n):
        zero = one = 0
        for k, value in enumerate(lines):
            if (value >> j) & 1:
                one |= 1 << k
            else:
                zero |= 1 << k
        masks.append((zero, one))
    return tuple(lines), tuple(masks)


def _singleton(bits: int) -> bool:
    return bits & (bits - 1) == 0


class _Contradiction(Exception):
    pass


def _propagate(cands: list[int], n: int, masks: tuple[tuple[int, int], ...]) -> None:
    """Narrow `cands` (rows 0..n-1, then columns n..2n-1) to a fixpoint, in place; raise on an empty set."""
    done = [False] * (2 * n)
    changed = True
    while changed:
        changed = False
        for side in (0, n):  # rows tell columns, then columns tell rows
            other = n - side
            fixed_bits = 0
            for i in range(side, side + n):
                c = cands[i]
                if c == 0:
                    raise _Contradiction
                if _singleton(c):
                    fixed_bits |= c
            for i in range(side, side + n):
                c = cands[i]
                if not _singleton(c):  # rows (and columns) are distinct: strike lines fixed elsewhere
                    narrowed = c & ~fixed_bits
                    if narrowed != c:
                        if narrowed == 0:
                            raise _Contradiction
                        cands[i] = c = narrowed
                        changed = True
                elif not done[i]:
                    done[i] = True
                    for k in range(side, side + n):  # a line fixed twice on one side is a contradiction
                        if k != i and cands[k] == c:
                            raise _Contradiction
                pos = i - side
                for j in range(n):
                    zero, one = masks[j]
                    has0, has1 = c & zero, c & one
                    if has0 and has1:
                        continue
                    # every candidate of line i has the same value at j: cell (i, j) is known to line j
                    keep = masks[pos][1] if has1 else masks[pos][0]
                    k = other + j
                    narrowed = cands[k] & keep
                    if narrowed != cands[k]:
                        if narrowed == 0:
                            raise _Contradiction
                        cands[k] = narrowed
                        changed = True


def _initial(givens: list[str]) -> list[int]:
    n = len(givens)
    lines, masks = line_table(n)
    full = (1 << len(lines)) - 1
    cands = [full] * (2 * n)
    for i, row in enumerate(givens):
        for j, cell in enumerate(row):
            if cell in "01":
                v = int(cell)
                cands[i] &= masks[j][v]
                cands[n + j] &= masks[i][v]
    return cands


def _search(cands: list[int], n: int, masks, limit: int, found: list[list[int]],
            order: Callable[[list[int]], list[int]] | None) -> None:
    try:
        _propagate(cands, n, masks)
    except _Contradiction:
        return
    best, best_count = -1, 0
    for i, c in enumerate(cands):
        if not _singleton(c):
            count = c.bit_count()
            if best < 0 or count < best_count:
                best, best_count = i, count
    if best < 0:
        found.append(cands)
        return
    c = cands[best]
    choices = [1 << k for k in range(c.bit_length()) if c >> k & 1]
    if order is not None:
        choices = order(choices)
    for choice in choices:
        branch = list(cands)
        branch[best] = choice
        _search(branch, n, masks, limit, found, order)
        if len(found) >= limit:
            return


def solutions(givens: list[str], limit: int = 2,
              order: Callable[[list[int]], list[int]] | None = None) -> list[list[str]]:
    """Up to `limit` solutions of a puzzle ('0', '1', '.' rows) as lists of row strings. `order` shuffles the
    branches (a seeded shuffle gives a random full grid from an empty one)."""
    n = len(givens)
    lines, masks = line_table(n)
    found: list[list[int]] = []
    _search(_initial(givens), n, masks, limit, found, order)
    out = []
    for cands in found[:limit]:
        rows = []
        for i in range(n):
            value = lines[cands[i].bit_length() - 1]
            rows.append("".join(str((value >> j) & 1) for j in range(n)))
        out.append(rows)
    return out


def count_solutions(givens: list[str], limit: int = 2) -> int:
    """How many solutions, counting no further than `limit` (2 answers "is it unique?")."""
    return len(solutions(givens, limit))
