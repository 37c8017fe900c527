"""Kakurasu: shade cells so that each row's shaded cells' column numbers add up to the row's clue, and each column's
shaded cells' row numbers add up to the column's clue (numbers count from 1 at the top left)."""
from __future__ import annotations

import itertools
import random
from functools import cache
from typing import Any

from ..puzzle import Grid, Level, Puzzle, Shaded, shape_problem
from ..sat import CNF, solve, unique


@cache
def patterns(n: int, total: int) -> tuple[tuple[int, ...], ...]:
    """Every 0/1 line of length n whose shaded positions (1-based) add up to `total`."""
    return tuple(bits for bits in itertools.product((0, 1), repeat=n)
                 if sum(k + 1 for k, b in enumerate(bits) if b) == total)


def weight(line: list[str] | tuple[str, ...]) -> int:
    return sum(k + 1 for k, c in enumerate(line) if c == "#")


def greedy(n: int, total: int) -> list[str]:
    """The line that takes the largest positions first (the lazy baseline's row)."""
    line = ["."] * n
    for k in reversed(range(n)):
        if total >= k + 1:
            line[k], total = "#", total - k - 1
    return line


class Kakurasu(Shaded, Puzzle):
    name = "kakurasu"
    title = "Kakurasu"
    sizes = (4, 5, 6, 7, 8)
    levels = (Level("easy", {"size": 5}, 0.3), Level("medium", {"size": 6}, 0.4), Level("hard", {"size": 7}, 0.3))
    lazy_doc = "every row's clue made from the largest column numbers first (rows right, columns ignored)"

    def _cnf(self, identity: dict[str, Any]) -> tuple[CNF, list[list[int]]]:
        n = identity["size"]
        cnf = CNF()
        x = [cnf.new(n) for _ in range(n)]
        for lines, clues in ((x, identity["rows"]), ([list(c) for c in zip(*x, strict=True)], identity["cols"])):
            for line, clue in zip(lines, clues, strict=True):
                cnf.table([{0: -v, 1: v} for v in line], patterns(n, clue))
        return cnf, x

    def draw(self, rng: random.Random, size: int, drop: float) -> dict[str, Any] | None:
        n = size
        grid = [["#" if rng.random() < 0.5 else "." for _ in range(n)] for _ in range(n)]
        identity = {"size": n, "rows": [weight(r) for r in grid], "cols": [weight(c) for c in zip(*grid, strict=True)]}
        cnf, x = self._cnf(identity)
        model = {v if grid[i][j] == "#" else -v for i, row in enumerate(x) for j, v in enumerate(row)}
        return {k: identity[k] for k in ("rows", "cols")} if unique(cnf.clauses, model, sum(x, [])) else None

    def solve(self, identity: dict[str, Any]) -> Grid | None:
        cnf, x = self._cnf(identity)
        model = solve(cnf.clauses)
        return None if model is None else [["#" if v in model else "." for v in row] for row in x]

    def violations(self, grid: Grid, identity: dict[str, Any]) -> list[str]:
        n = identity["size"]
        found = shape_problem(grid, n, n, {"#", "."})
        if found:
            return found
        for kind, lines, clues in (("row", grid, identity["rows"]),
                                   ("column", list(zip(*grid, strict=True)), identity["cols"])):
            for i, (line, clue) in enumerate(zip(lines, clues, strict=True)):
                if weight(line) != clue:
                    found.append(f"{kind} {i + 1} adds up to {weight(line)}, its clue is {clue}")
        return found

    def lazy(self, identity: dict[str, Any], rng: random.Random) -> Grid:
        return [greedy(identity["size"], clue) for clue in identity["rows"]]

    def prompt(self, identity: dict[str, Any]) -> str:
        n = identity["size"]
        head = "    " + " ".join(str(j + 1) for j in range(n))
        rows = "\n".join(f"{i + 1:>2}  " + " ".join("." * n) + f"   {clue}" for i, clue in enumerate(identity["rows"]))
        example = [["#", "."] * (n // 2) + ["#"] * (n % 2), ["."] * n]
        return (f"Solve this {n}x{n} kakurasu puzzle. Shade some cells. Columns are numbered 1 to {n} from the left "
                f"and rows 1 to {n} from the top. The number right of a row is the sum of the column numbers of "
                f"its shaded cells; the number below a column is the sum of the row numbers of its shaded cells "
                f"(0: nothing shaded).\n\n{head}\n{rows}\n\nColumn clues, left to right: "
                + ", ".join(map(str, identity["cols"])) + "\n\n"
                "Write # for a shaded cell and . for an empty one. " + self.answer_prompt(example))
