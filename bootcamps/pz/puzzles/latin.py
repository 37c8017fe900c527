"""What the Latin-square puzzles share (skyscrapers, kenken, killer sudoku): the one-hot encoding of an n x n grid
of 1..n with every value once per row and column (and per box), a random filled grid, the digit-grid checks."""
from __future__ import annotations

import functools
import random
from typing import Any

from ..puzzle import Grid, Puzzle, shape_problem
from ..sat import CNF, Clause, one_hot, solve, unique


def latin_cnf(n: int, box: tuple[int, int] | None = None) -> tuple[CNF, list[list[dict[int, int]]]]:
    """x[i][j][v]: cell (i, j) holds v; every value once per row, column (and box of `box` rows x cols). A fresh
    CNF each call (callers add to it); the encoding itself is built once per shape."""
    count, clauses, x = _latin(n, box)
    cnf = CNF()
    cnf.count, cnf.clauses = count, list(clauses)
    return cnf, x


@functools.cache
def _latin(n: int, box: tuple[int, int] | None) -> tuple[int, tuple[Clause, ...], list[list[dict[int, int]]]]:
    cnf = CNF()
    flat = one_hot(cnf, n * n, range(1, n + 1))
    x = [flat[i * n:(i + 1) * n] for i in range(n)]
    units = [[(i, j) for j in range(n)] for i in range(n)] + [[(i, j) for i in range(n)] for j in range(n)]
    if box:
        h, w = box
        units += [[(a + i, b + j) for i in range(h) for j in range(w)] for a in range(0, n, h) for b in range(0, n, w)]
    for unit in units:
        for v in range(1, n + 1):
            cnf.exactly_one([x[i][j][v] for i, j in unit])
    return cnf.count, tuple(cnf.clauses), x


def decode(model: set[int], x: list[list[dict[int, int]]]) -> Grid:
    return [[str(next(v for v, lit in cell.items() if lit in model)) for cell in row] for row in x]


def shown(x: list[list[dict[int, int]]]) -> list[int]:
    return [lit for row in x for cell in row for lit in cell.values()]


def random_grid(rng: random.Random, n: int, box: tuple[int, int] | None = None) -> Grid:
    """A random filled grid: the SAT solver's grid for shuffled clauses and a random first cell, then its symbols,
    its rows and its columns permuted (within bands and stacks, and bands and stacks as wholes, under boxes)."""
    cnf, x = latin_cnf(n, box)
    clauses = list(cnf.clauses)
    clauses.sort(key=lambda _: rng.random())  # a shuffle at C speed (the solver takes the first model it meets)
    model = solve(clauses + [[x[rng.randrange(n)][rng.randrange(n)][rng.randrange(1, n + 1)]]])
    grid = decode(model, x)
    symbols = [str(v) for v in range(1, n + 1)]
    rng.shuffle(symbols)
    h, w = box or (1, 1)
    rows = _order(rng, n, h)
    cols = _order(rng, n, w)
    return [[symbols[int(grid[i][j]) - 1] for j in cols] for i in rows]


def _order(rng: random.Random, n: int, block: int) -> list[int]:
    """A random order of 0..n-1 that keeps blocks of `block` together (blocks and their insides shuffled)."""
    blocks = [list(range(b, b + block)) for b in range(0, n, block)]
    rng.shuffle(blocks)
    for b in blocks:
        rng.shuffle(b)
    return [i for b in blocks for i in b]


def cyclic(n: int, box: tuple[int, int] | None = None) -> Grid:
    """The textbook filled grid (row i shifted by i; for boxes the usual band shift)."""
    if box is None:
        return [[str((i + j) % n + 1) for j in range(n)] for i in range(n)]
    h, w = box
    return [[str((w * (i % h) + i // h + j) % n + 1) for j in range(n)] for i in range(n)]


def latin_problems(grid: Grid, n: int, box: tuple[int, int] | None = None) -> list[str]:
    """The shape and repetition rules of a Latin grid (of a sudoku with `box`), as sentences."""
    found = shape_problem(grid, n, n, {str(v) for v in range(1, n + 1)})
    if found:
        return found
    for i in range(n):
        if len(set(grid[i])) != n:
            found.append(f"row {i + 1} repeats a value")
        if len({grid[k][i] for k in range(n)}) != n:
            found.append(f"column {i + 1} repeats a value")
    if box:
        h, w = box
        for a in range(0, n, h):
            for b in range(0, n, w):
                if len({grid[a + i][b + j] for i in range(h) for j in range(w)}) != n:
                    found.append(f"the box at row {a + 1}, column {b + 1} repeats a value")
    return found


class CagedLatin(Puzzle):
    """A Latin-grid puzzle with no given cell, cut into cages (kenken, killer sudoku): `_cnf` encodes the identity as
    clauses over latin_cnf's x; the grid model, the solver and the uniqueness proof are shared."""

    def _cnf(self, identity: dict[str, Any]) -> tuple[list[Clause], list[list[dict[int, int]]]]:
        raise NotImplementedError

    def proves_unique(self, identity: dict[str, Any], grid: Grid) -> bool:
        """Whether `grid` is the only solution of the identity's clauses."""
        clauses, x = self._cnf(identity)
        model = {lit if str(v) == grid[i][j] else -lit for i, row in enumerate(x) for j, cell in enumerate(row)
                 for v, lit in cell.items()}
        return unique(clauses, model, shown(x))

    def solve(self, identity: dict[str, Any]) -> Grid | None:
        clauses, x = self._cnf(identity)
        model = solve(clauses)
        return None if model is None else decode(model, x)

    def symbols(self, identity: dict[str, Any]) -> list[str]:
        return [str(v) for v in range(1, identity["size"] + 1)]

    def start(self, identity: dict[str, Any]) -> Grid:
        n = identity["size"]
        return [["."] * n for _ in range(n)]
