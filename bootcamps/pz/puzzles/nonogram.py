"""Nonogram (Tatham's Pattern): paint cells so that each row's and column's runs of painted cells match its clue."""
from __future__ import annotations

import itertools
import random
from functools import cache
from typing import Any, ClassVar

from ..puzzle import Grid, Level, Puzzle, Shaded, shape_problem
from ..sat import CNF, solve, unique

RULES = ("Paint some cells of the {n}x{n} grid. The numbers of a row (left to right) and of a column (top to bottom) "
         "give the lengths of its runs of painted cells, in order, with at least one empty cell between runs; "
         "0 means the line has no painted cell.")


def runs(line: list[str] | str) -> list[int]:
    return [len(list(g)) for k, g in itertools.groupby(line) if k == "#"]


@cache
def patterns(n: int, clue: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every 0/1 line of length n whose runs are `clue`."""
    return tuple(bits for bits in itertools.product((0, 1), repeat=n)
                 if [len(list(g)) for k, g in itertools.groupby(bits) if k] == list(clue))


def packed(n: int, clue: list[int]) -> list[str]:
    """The runs of `clue` packed to the left (one gap each)."""
    line = []
    for r in clue:
        line += ["#"] * r + ["."]
    return (line + ["."] * n)[:n]


class Nonogram(Shaded, Puzzle):
    name = "nonogram"
    title = "Nonogram"
    sizes = (5, 6, 7, 8, 10)
    levels = (Level("easy", {"size": 6}, 0.3), Level("medium", {"size": 8}, 0.4), Level("hard", {"size": 10}, 0.3))
    lazy_doc = "every row's runs packed to the left (the rows' clues kept, the columns' ignored)"
    density: ClassVar[float] = 0.58

    def _cnf(self, identity: dict[str, Any]) -> tuple[CNF, list[list[int]]]:
        n = identity["size"]
        cnf = CNF()
        x = [cnf.new(n) for _ in range(n)]
        for lines, clues in ((x, identity["rows"]), ([list(c) for c in zip(*x, strict=True)], identity["cols"])):
            for line, clue in zip(lines, clues, strict=True):
                cnf.table([{0: -v, 1: v} for v in line], patterns(n, tuple(clue)))
        return cnf, x

    def draw(self, rng: random.Random, size: int, drop: float) -> dict[str, Any] | None:
        n = size
        grid = [["#" if rng.random() < self.density else "." for _ in range(n)] for _ in range(n)]
        identity = {"size": n, "rows": [runs(r) for r in grid], "cols": [runs(c) for c in zip(*grid, strict=True)]}
        cnf, x = self._cnf(identity)
        model = {v if grid[i][j] == "#" else -v for i, row in enumerate(x) for j, v in enumerate(row)}
        shown = [v for row in x for v in row]
        return {k: identity[k] for k in ("rows", "cols")} if unique(cnf.clauses, model, shown) else None

    def solve(self, identity: dict[str, Any]) -> Grid | None:
        cnf, x = self._cnf(identity)
        model = solve(cnf.clauses)
        return None if model is None else [["#" if v in model else "." for v in row] for row in x]

    def violations(self, grid: Grid, identity: dict[str, Any]) -> list[str]:
        n = identity["size"]
        found = shape_problem(grid, n, n, {"#", "."})
        if found:
            return found
        for kind, lines, clues in (("row", grid, identity["rows"]), ("column", list(zip(*grid, strict=True)), identity["cols"])):
            for i, (line, clue) in enumerate(zip(lines, clues, strict=True)):
                if runs(line) != list(clue):
                    found.append(f"{kind} {i + 1} has runs {runs(line) or [0]}, its clue is {clue or [0]}")
        return found

    def lazy(self, identity: dict[str, Any], rng: random.Random) -> Grid:
        return [packed(identity["size"], clue) for clue in identity["rows"]]

    def prompt(self, identity: dict[str, Any]) -> str:
        n = identity["size"]
        rows = "\n".join(f"row {i + 1}: {' '.join(map(str, c)) or '0'}" for i, c in enumerate(identity["rows"]))
        cols = "\n".join(f"column {j + 1}: {' '.join(map(str, c)) or '0'}" for j, c in enumerate(identity["cols"]))
        example = [["#", "."] * (n // 2) + ["#"] * (n % 2), ["."] * n]
        return (f"Solve this {n}x{n} nonogram. {RULES.format(n=n)}\n\nRow clues:\n{rows}\n\nColumn clues:\n{cols}\n\n"
                f"Write # for a painted cell and . for an empty one. " + self.answer_prompt(example))
