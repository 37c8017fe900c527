"""Mosaic (Tatham's Mosaic, Fill-a-Pix): paint cells so that every number counts the painted cells of the 3x3 block
around it (itself included)."""
from __future__ import annotations

import random
from typing import Any

from ..puzzle import Grid, Level, Puzzle, Shaded, neighbours, shape_problem
from ..sat import CNF, solve, thin, unique


def block_of(i: int, j: int, n: int) -> list[tuple[int, int]]:
    return [(i, j), *neighbours(i, j, n, n, diagonal=True)]


class Mosaic(Shaded, Puzzle):
    name = "mosaic"
    title = "Mosaic"
    sizes = (4, 5, 6, 7, 8)
    levels = (Level("easy", {"size": 5, "drop": 0.3}, 0.3), Level("medium", {"size": 6, "drop": 0.4}, 0.4),
              Level("hard", {"size": 7, "drop": 0.5}, 0.3))
    lazy_doc = "a cell painted when its own number is 5 or more, every other cell empty"

    def _clauses(self, identity: dict[str, Any]) -> tuple[list, dict, list[list[int]]]:
        n = identity["size"]
        cnf = CNF()
        x = [cnf.new(n) for _ in range(n)]
        clues = {}
        for i, row in enumerate(identity["clues"]):
            for j, c in enumerate(row):
                if c != ".":
                    start = len(cnf.clauses)
                    cnf.exactly([x[a][b] for a, b in block_of(i, j, n)], int(c))
                    clues[(i, j)] = cnf.clauses[start:]
        return [], clues, x

    def draw(self, rng: random.Random, size: int, drop: float) -> dict[str, Any] | None:
        n = size
        grid = [[rng.random() < 0.5 for _ in range(n)] for _ in range(n)]
        full = ["".join(str(sum(grid[a][b] for a, b in block_of(i, j, n))) for j in range(n)) for i in range(n)]
        base, clues, x = self._clauses({"size": n, "clues": full})
        model = {v if grid[i][j] else -v for i, row in enumerate(x) for j, v in enumerate(row)}
        shown = [v for row in x for v in row]
        if not unique(base + [c for cs in clues.values() for c in cs], model, shown):
            return None
        kept = thin(base, clues, model, shown, list(clues), drop, rng)
        return {"clues": ["".join(full[i][j] if (i, j) in kept else "." for j in range(n)) for i in range(n)]}

    def solve(self, identity: dict[str, Any]) -> Grid | None:
        base, clues, x = self._clauses(identity)
        model = solve(base + [c for cs in clues.values() for c in cs])
        return None if model is None else [["#" if v in model else "." for v in row] for row in x]

    def violations(self, grid: Grid, identity: dict[str, Any]) -> list[str]:
        n = identity["size"]
        found = shape_problem(grid, n, n, {"#", "."})
        if found:
            return found
        for i, row in enumerate(identity["clues"]):
            for j, c in enumerate(row):
                if c != "." and sum(grid[a][b] == "#" for a, b in block_of(i, j, n)) != int(c):
                    found.append(f"the block around row {i + 1}, column {j + 1} must hold {c} painted cells")
        return found

    def lazy(self, identity: dict[str, Any], rng: random.Random) -> Grid:
        return [["#" if c != "." and int(c) >= 5 else "." for c in row] for row in identity["clues"]]

    def prompt(self, identity: dict[str, Any]) -> str:
        n = identity["size"]
        grid = "\n".join(" ".join(row) for row in identity["clues"])
        example = [["#", "."] * (n // 2) + ["#"] * (n % 2), ["."] * n]
        return (f"Solve this {n}x{n} mosaic puzzle. Paint some cells of the grid. A number in a cell says how many "
                f"cells are painted in the 3x3 block centred on it (the cell itself and its up to 8 neighbours, "
                f"diagonal ones included; fewer at the edges). A . has no number.\n\n{grid}\n\n"
                "Write # for a painted cell and . for an empty one. " + self.answer_prompt(example))
