"""Skyscrapers (Tatham's Towers): a Latin square of heights; a clue outside a line counts the buildings seen from
there (a taller one hides every shorter one behind it)."""
from __future__ import annotations

import itertools
import random
from functools import cache
from typing import Any

from ..puzzle import Grid, Level, Puzzle
from ..sat import minimise, solve, thin
from .latin import cyclic, decode, latin_cnf, latin_problems, random_grid, shown

SIDES = ("top", "bottom", "left", "right")


def seen(line: list[str]) -> int:
    count, tallest = 0, 0
    for c in line:
        if int(c) > tallest:
            count, tallest = count + 1, int(c)
    return count


def line_of(side: str, k: int, n: int) -> list[tuple[int, int]]:
    """The cells of line k as seen from `side`, nearest first."""
    if side == "top":
        return [(i, k) for i in range(n)]
    if side == "bottom":
        return [(i, k) for i in reversed(range(n))]
    if side == "left":
        return [(k, j) for j in range(n)]
    return [(k, j) for j in reversed(range(n))]


@cache
def lines_seeing(n: int, count: int) -> tuple[tuple[int, ...], ...]:
    """Every ordering of heights 1..n (nearest first) of which exactly `count` are seen."""
    return tuple(p for p in itertools.permutations(range(1, n + 1)) if seen([str(v) for v in p]) == count)


class Skyscrapers(Puzzle):
    name = "skyscrapers"
    title = "Skyscrapers"
    sizes = (4, 5, 6, 7)
    levels = (Level("easy", {"size": 5, "drop": 0.1}, 0.3), Level("medium", {"size": 5, "drop": 0.3}, 0.4),
              Level("hard", {"size": 5, "drop": 0.5}, 0.3))
    lazy_doc = "the textbook Latin square (row i is 1..n shifted by i), the clues ignored"

    def _clauses(self, identity: dict[str, Any]) -> tuple[list, dict, list]:
        n = identity["size"]
        cnf, x = latin_cnf(n)
        base = len(cnf.clauses)
        clues = {}
        for side in SIDES:
            for k, count in enumerate(identity[side]):
                if count:
                    start = len(cnf.clauses)
                    cnf.table([x[i][j] for i, j in line_of(side, k, n)], lines_seeing(n, count))
                    clues[(side, k)] = cnf.clauses[start:]
        for i, row in enumerate(identity["givens"]):
            for j, c in enumerate(row):
                if c != ".":
                    clues[("cell", i, j)] = [[x[i][j][int(c)]]]
        return cnf.clauses[:base], clues, x

    def draw(self, rng: random.Random, size: int, drop: float) -> dict[str, Any] | None:
        n = size
        grid = random_grid(rng, n)
        full = {side: [seen([grid[i][j] for i, j in line_of(side, k, n)]) for k in range(n)] for side in SIDES}
        base, clues, x = self._clauses({"size": n, **full, "givens": ["".join(row) for row in grid]})
        model = {lit if str(v) == grid[i][j] else -lit for i, row in enumerate(x) for j, cell in enumerate(row)
                 for v, lit in cell.items()}
        cells, sides = [k for k in clues if k[0] == "cell"], [k for k in clues if k[0] != "cell"]
        rng.shuffle(cells)
        rng.shuffle(sides)
        # as few givens as prove it unique (most need none or a few); then a `drop` share of the clues outside
        kept_cells = minimise(base, clues, model, shown(x), cells, batch=len(cells))
        if kept_cells is None:
            return None
        kept = set(thin(base, {k: clues[k] for k in kept_cells}, model, shown(x), sides, drop, rng))
        return {**{side: [full[side][k] if (side, k) in kept else 0 for k in range(n)] for side in SIDES},
                "givens": ["".join(grid[i][j] if ("cell", i, j) in kept else "." for j in range(n)) for i in range(n)]}

    def solve(self, identity: dict[str, Any]) -> Grid | None:
        base, clues, x = self._clauses(identity)
        model = solve(base + [c for cs in clues.values() for c in cs])
        return None if model is None else decode(model, x)

    def violations(self, grid: Grid, identity: dict[str, Any]) -> list[str]:
        n = identity["size"]
        found = latin_problems(grid, n)
        if found:
            return found
        found += [f"row {i + 1}, column {j + 1} is given as {c}" for i, row in enumerate(identity["givens"])
                  for j, c in enumerate(row) if c != "." and grid[i][j] != c]
        for side in SIDES:
            for k, count in enumerate(identity[side]):
                if count and seen([grid[i][j] for i, j in line_of(side, k, n)]) != count:
                    found.append(f"from the {side} of line {k + 1} {count} buildings must be seen")
        return found

    def symbols(self, identity: dict[str, Any]) -> list[str]:
        return [str(v) for v in range(1, identity["size"] + 1)]

    def start(self, identity: dict[str, Any]) -> Grid:
        return [list(row) for row in identity["givens"]]

    def lazy(self, identity: dict[str, Any], rng: random.Random) -> Grid:
        return cyclic(identity["size"])

    def prompt(self, identity: dict[str, Any]) -> str:
        n = identity["size"]

        def clue(c: int) -> str:
            return str(c) if c else "."

        lines = ["    " + " ".join(clue(c) for c in identity["top"]), ""]
        for i in range(n):
            lines.append(f"{clue(identity['left'][i])}   " + " ".join(identity["givens"][i]) + f"   {clue(identity['right'][i])}")
        lines += ["", "    " + " ".join(clue(c) for c in identity["bottom"])]
        example = [self.symbols(identity), self.symbols(identity)[1:] + ["1"]]
        return (f"Solve this {n}x{n} skyscrapers puzzle. Put a building of height 1 to {n} in every cell so that "
                f"every row and every column holds each height exactly once. A number outside the grid says how "
                f"many buildings are seen from there looking along that row or column: a building hides every "
                f"shorter one behind it. A . outside the grid is no clue; a digit inside the grid is given.\n\n" + "\n".join(lines) + "\n\n"
                "Write the heights as digits. " + self.answer_prompt(example))
