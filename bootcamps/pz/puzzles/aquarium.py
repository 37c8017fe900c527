"""Aquarium: the grid is cut into tanks; fill some cells with water so that each tank is filled up to one level
(every cell of the tank at or below its water line is water, none above), matching row and column counts."""
from __future__ import annotations

import random
from typing import Any

from ..puzzle import Grid, Level, Puzzle, Shaded, shape_problem
from ..sat import CNF, solve, unique
from .regions import LABELS, map_text, partition


class Aquarium(Shaded, Puzzle):
    name = "aquarium"
    title = "Aquarium"
    sizes = (4, 5, 6, 7, 8)
    # 5x5: the lazy grid solves 6 of 100 (the baseline limit is 5%)
    levels = (Level("easy", {"size": 6}, 0.3), Level("medium", {"size": 7}, 0.4), Level("hard", {"size": 8}, 0.3))
    lazy_doc = "every row's count filled from the left, the tanks ignored"

    def _cnf(self, identity: dict[str, Any]) -> tuple[CNF, list[list[int]]]:
        n = identity["size"]
        cnf = CNF()
        x = [cnf.new(n) for _ in range(n)]
        for tank in identity["tanks"]:
            for a, b in tank:
                # water in (a, b) means water in every cell of the tank on its row or below
                cnf.clauses.extend([-x[a][b], x[c][d]] for c, d in tank if c >= a and (c, d) != (a, b))
        for k in range(n):
            cnf.exactly(x[k], identity["rows"][k])
            cnf.exactly([x[i][k] for i in range(n)], identity["cols"][k])
        return cnf, x

    def draw(self, rng: random.Random, size: int, drop: float) -> dict[str, Any] | None:
        n = size
        tanks = partition(rng, n, 2, n)
        water = set()
        for tank in tanks:
            rows = sorted({i for i, _ in tank})
            line = rng.choice([*rows, n])  # the highest row under water (n: the tank is empty)
            water.update((i, j) for i, j in tank if i >= line)
        identity = {"size": n, "tanks": [[list(c) for c in t] for t in tanks],
                    "rows": [sum((i, j) in water for j in range(n)) for i in range(n)],
                    "cols": [sum((i, j) in water for i in range(n)) for j in range(n)]}
        cnf, x = self._cnf(identity)
        model = {v if (i, j) in water else -v for i, row in enumerate(x) for j, v in enumerate(row)}
        if not unique(cnf.clauses, model, [v for row in x for v in row]):
            return None
        return {k: identity[k] for k in ("tanks", "rows", "cols")}

    def solve(self, identity: dict[str, Any]) -> Grid | None:
        cnf, x = self._cnf(identity)
        model = solve(cnf.clauses)
        return None if model is None else [["#" if v in model else "." for v in row] for row in x]

    def violations(self, grid: Grid, identity: dict[str, Any]) -> list[str]:
        n = identity["size"]
        found = shape_problem(grid, n, n, {"#", "."})
        if found:
            return found
        for k, tank in enumerate(identity["tanks"]):
            wet = [i for i, j in tank if grid[i][j] == "#"]
            line = min(wet, default=n)
            if any((grid[i][j] == "#") != (i >= line) for i, j in tank):
                found.append(f"tank {LABELS[k % len(LABELS)]} is not filled up to one level")
        for k in range(n):
            if grid[k].count("#") != identity["rows"][k]:
                found.append(f"row {k + 1} must have {identity['rows'][k]} water cells")
            if sum(grid[i][k] == "#" for i in range(n)) != identity["cols"][k]:
                found.append(f"column {k + 1} must have {identity['cols'][k]} water cells")
        return found

    def lazy(self, identity: dict[str, Any], rng: random.Random) -> Grid:
        n = identity["size"]
        return [["#"] * r + ["."] * (n - r) for r in identity["rows"]]

    def prompt(self, identity: dict[str, Any]) -> str:
        n = identity["size"]
        board = "\n".join(line + f"   {identity['rows'][i]}"
                          for i, line in enumerate(map_text(identity["tanks"], n).split("\n")))
        example = [["#", "."] * (n // 2) + ["#"] * (n % 2), ["."] * n]
        return (f"Solve this {n}x{n} aquarium puzzle. The grid is cut into tanks (cells with the same letter). "
                f"Fill some cells with water. Water sits at the bottom of a tank: in each tank there is one water "
                f"level, and every cell of the tank in a row at or below that level is water while every cell "
                f"above it is empty (a tank may be empty or full; cells of one tank in the same row are all water "
                f"or all empty). The number right of each row and below each column is how many of its cells are "
                f"water.\n\n{board}\n\n" + " ".join(map(str, identity["cols"]))
                + "\n\nWrite # for a water cell and . for an empty one. " + self.answer_prompt(example))
