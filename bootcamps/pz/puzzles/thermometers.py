"""Thermometers: fill some cells; every thermometer fills from its bulb without gaps, and the numbers count the filled
cells of each row and column."""
from __future__ import annotations

import random
import string
from typing import Any

from ..puzzle import Grid, Level, Puzzle, Shaded, shape_problem
from ..sat import CNF, solve, unique

LABELS = string.ascii_letters


def lay(rng: random.Random, n: int) -> list[list[tuple[int, int]]]:
    """Straight thermometers of 2-4 cells (1 where nothing longer fits) tiling the grid, bulb first."""
    used: set[tuple[int, int]] = set()
    out = []
    for i in range(n):
        for j in range(n):
            if (i, j) in used:
                continue
            options = []
            for a, b in ((0, 1), (1, 0)):
                run = [(i, j)]
                while len(run) < 4:
                    p, q = run[-1][0] + a, run[-1][1] + b
                    if p >= n or q >= n or (p, q) in used:
                        break
                    run.append((p, q))
                options.append(run)
            run = rng.choice(options)
            run = run[: rng.randint(min(2, len(run)), len(run))]
            used.update(run)
            out.append(run if rng.random() < 0.5 else run[::-1])
    return out


class Thermometers(Shaded, Puzzle):
    name = "thermometers"
    title = "Thermometers"
    sizes = (4, 5, 6, 7, 8)
    # 7x7: 3 of 100 random layouts unique (0.9 s a row)
    levels = (Level("easy", {"size": 5}, 0.5), Level("hard", {"size": 6}, 0.5))
    lazy_doc = "every row's count filled from the left, the thermometers ignored"

    def _cnf(self, identity: dict[str, Any]) -> tuple[CNF, list[list[int]]]:
        n = identity["size"]
        cnf = CNF()
        x = [cnf.new(n) for _ in range(n)]
        for thermo in identity["thermometers"]:
            for (a, b), (c, d) in zip(thermo, thermo[1:], strict=False):
                cnf.add([-x[c][d], x[a][b]])
        for k in range(n):
            cnf.exactly(x[k], identity["rows"][k])
            cnf.exactly([x[i][k] for i in range(n)], identity["cols"][k])
        return cnf, x

    def draw(self, rng: random.Random, size: int, drop: float) -> dict[str, Any] | None:
        n = size
        thermos = lay(rng, n)
        filled = {c for t in thermos for c in t[: rng.randint(0, len(t))]}
        identity = {"size": n, "thermometers": [[list(c) for c in t] for t in thermos],
                    "rows": [sum((i, j) in filled for j in range(n)) for i in range(n)],
                    "cols": [sum((i, j) in filled for i in range(n)) for j in range(n)]}
        cnf, x = self._cnf(identity)
        model = {v if (i, j) in filled else -v for i, row in enumerate(x) for j, v in enumerate(row)}
        if not unique(cnf.clauses, model, [v for row in x for v in row]):
            return None
        return {k: identity[k] for k in ("thermometers", "rows", "cols")}

    def solve(self, identity: dict[str, Any]) -> Grid | None:
        cnf, x = self._cnf(identity)
        model = solve(cnf.clauses)
        return None if model is None else [["#" if v in model else "." for v in row] for row in x]

    def violations(self, grid: Grid, identity: dict[str, Any]) -> list[str]:
        n = identity["size"]
        found = shape_problem(grid, n, n, {"#", "."})
        if found:
            return found
        for k, thermo in enumerate(identity["thermometers"]):
            cells = [grid[i][j] for i, j in thermo]
            if "".join(cells).rstrip(".").count(".") or "".join(cells).lstrip("#").count("#"):
                found.append(f"thermometer {LABELS[k % len(LABELS)]} is not filled from its bulb without gaps")
        for k in range(n):
            if grid[k].count("#") != identity["rows"][k]:
                found.append(f"row {k + 1} must have {identity['rows'][k]} filled cells")
            if sum(grid[i][k] == "#" for i in range(n)) != identity["cols"][k]:
                found.append(f"column {k + 1} must have {identity['cols'][k]} filled cells")
        return found

    def lazy(self, identity: dict[str, Any], rng: random.Random) -> Grid:
        n = identity["size"]
        return [["#"] * r + ["."] * (n - r) for r in identity["rows"]]

    def prompt(self, identity: dict[str, Any]) -> str:
        n = identity["size"]
        label = [["?"] * n for _ in range(n)]
        lines = []
        for k, thermo in enumerate(identity["thermometers"]):
            name = LABELS[k % len(LABELS)]
            for i, j in thermo:
                label[i][j] = name
            cells = ", ".join(f"({i + 1},{j + 1})" for i, j in thermo)
            lines.append(f"{name}: {cells}")
        grid = "\n".join(" ".join(r) + f"   {identity['rows'][i]}" for i, r in enumerate(label))
        example = [["#", "."] * (n // 2) + ["#"] * (n % 2), ["."] * n]
        return (f"Solve this {n}x{n} thermometers puzzle. The grid is cut into straight thermometers (cells with the "
                f"same letter). Fill some cells: a thermometer fills from its bulb, without gaps, so its filled cells "
                f"are its first few cells counted from the bulb (possibly none, possibly all). The number right of "
                f"each row and below each column is how many of its cells are filled.\n\n{grid}\n\n"
                + " ".join(map(str, identity["cols"])) + "\n\nEach thermometer's cells (row,column), bulb first:\n"
                + "\n".join(lines) + "\n\nWrite # for a filled cell and . for an empty one. "
                + self.answer_prompt(example))
