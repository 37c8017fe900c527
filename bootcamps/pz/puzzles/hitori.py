"""Hitori: shade cells so that no number repeats among the unshaded cells of a row or column, no two shaded cells
touch side by side, and the unshaded cells are all connected. Connectivity is not written as CNF: the solver's
grid is checked, and a disconnected one gets a clause forbidding that cut (exact: it is re-solved until connected)."""
from __future__ import annotations

import random
from typing import Any

from ..puzzle import Grid, Level, Puzzle, Shaded, neighbours, shape_problem
from ..sat import CNF, Clause, block, solve
from .latin import random_grid

Cell = tuple[int, int]
CUTS = 200  # connectivity clauses added in one search before it gives up (none needs more than a few dozen)


def component(cells: set[Cell], n: int) -> set[Cell]:
    """The cells of `cells` connected to its smallest one."""
    first = min(cells)
    seen, todo = {first}, [first]
    while todo:
        c = todo.pop()
        for d in neighbours(*c, n, n):
            if d in cells and d not in seen:
                seen.add(d)
                todo.append(d)
    return seen


class Hitori(Shaded, Puzzle):
    name = "hitori"
    title = "Hitori"
    numbers = True
    sizes = (5, 6, 7, 8)
    # 7x7: 1 draw in 65 unique (4 s a row at load 14)
    levels = (Level("easy", {"size": 5}, 0.5), Level("hard", {"size": 6}, 0.5))
    lazy_doc = "every repeat of a number in its row or column shaded (reading order, the first kept), touching ignored"

    def _cnf(self, identity: dict[str, Any]) -> tuple[CNF, list[list[int]]]:
        board = identity["board"]
        n = identity["size"]
        cnf = CNF()
        s = [cnf.new(n) for _ in range(n)]
        for i in range(n):
            for j in range(n):
                # implied by connectivity, cheap to state: an unshaded cell has an unshaded neighbour
                cnf.add([s[i][j], *(-s[a][b] for a, b in neighbours(i, j, n, n))])
                for a, b in ((i + 1, j), (i, j + 1)):
                    if a < n and b < n:
                        cnf.add([-s[i][j], -s[a][b]])
                # two equal numbers of one line: one of them is shaded
                cnf.clauses.extend([s[i][j], s[i][k]] for k in range(j + 1, n) if board[i][j] == board[i][k])
                cnf.clauses.extend([s[i][j], s[k][j]] for k in range(i + 1, n) if board[i][j] == board[k][j])
        return cnf, s

    def _search(self, clauses: list[Clause], s: list[list[int]]) -> set[int] | None:
        """A model whose unshaded cells are connected (cut clauses are added to `clauses`), or None."""
        n = len(s)
        for _ in range(CUTS):
            model = solve(clauses)
            if model is None:
                return None
            white = {(i, j) for i in range(n) for j in range(n) if -s[i][j] in model}
            parts = []
            while white:
                parts.append(component(white, n))
                white -= parts[-1]
            if len(parts) == 1:
                return model
            for part in parts:  # for each piece: not (it unshaded, its rim shaded, a cell of another piece unshaded)
                rim = {d for c in part for d in neighbours(*c, n, n)} - part
                other = min(c for p in parts if p is not part for c in p)
                clauses.append([*(s[i][j] for i, j in part), *(-s[i][j] for i, j in rim), s[other[0]][other[1]]])
        return None

    def draw(self, rng: random.Random, size: int, drop: float) -> dict[str, Any] | None:
        n = size
        grid = [[int(c) for c in row] for row in random_grid(rng, n)]
        shaded: set[Cell] = set()
        cells = [(i, j) for i in range(n) for j in range(n)]
        rng.shuffle(cells)
        for c in cells:
            if len(shaded) >= n * n // 4:
                break
            if any(d in shaded for d in neighbours(*c, n, n)):
                continue
            white = set(cells) - shaded - {c}
            if component(white, n) == white:
                shaded.add(c)
        for i, j in sorted(shaded):
            seen = [grid[i][k] for k in range(n) if (i, k) not in shaded] + \
                   [grid[k][j] for k in range(n) if (k, j) not in shaded]
            grid[i][j] = rng.choice(seen)
        identity = {"size": n, "board": [[str(v) for v in row] for row in grid]}
        cnf, s = self._cnf(identity)
        clauses = list(cnf.clauses)
        model = self._search(clauses, s)
        if model is None:
            return None
        clauses.append(block(model, [v for row in s for v in row]))
        if self._search(clauses, s) is not None:
            return None
        return {"board": identity["board"]}

    def solve(self, identity: dict[str, Any]) -> Grid | None:
        cnf, s = self._cnf(identity)
        model = self._search(list(cnf.clauses), s)
        return None if model is None else [["#" if v in model else "." for v in row] for row in s]

    def violations(self, grid: Grid, identity: dict[str, Any]) -> list[str]:
        n = identity["size"]
        board = identity["board"]
        found = shape_problem(grid, n, n, {"#", "."})
        if found:
            return found
        for i in range(n):
            row = [board[i][j] for j in range(n) if grid[i][j] == "."]
            col = [board[k][i] for k in range(n) if grid[k][i] == "."]
            if len(set(row)) != len(row):
                found.append(f"row {i + 1} repeats a number among its unshaded cells")
            if len(set(col)) != len(col):
                found.append(f"column {i + 1} repeats a number among its unshaded cells")
        for i in range(n):
            for j in range(n):
                if grid[i][j] == "#" and any(grid[a][b] == "#" for a, b in ((i + 1, j), (i, j + 1)) if a < n and b < n):
                    found.append(f"the shaded cell at row {i + 1}, column {j + 1} touches another side by side")
        white = {(i, j) for i in range(n) for j in range(n) if grid[i][j] == "."}
        if not white or component(white, n) != white:
            found.append("the unshaded cells are not all connected")
        return found

    def lazy(self, identity: dict[str, Any], rng: random.Random) -> Grid:
        n = identity["size"]
        board = identity["board"]
        grid = [["."] * n for _ in range(n)]
        for i in range(n):
            for j in range(n):
                if board[i][j] in board[i][:j] or any(board[k][j] == board[i][j] for k in range(i)):
                    grid[i][j] = "#"
        return grid

    def prompt(self, identity: dict[str, Any]) -> str:
        n = identity["size"]
        board = "\n".join(" ".join(r) for r in identity["board"])
        example = [["#", "."] * (n // 2) + ["#"] * (n % 2), ["."] * n]
        return (f"Solve this {n}x{n} hitori puzzle. Shade some cells so that (1) no number appears twice among "
                f"the unshaded cells of any row or any column, (2) no two shaded cells touch side by side "
                f"(diagonally is fine), and (3) the unshaded cells form one connected area (each can be reached "
                f"from every other through unshaded cells, moving up, down, left or right).\n\n{board}\n\n"
                "Write # for a shaded cell and . for an unshaded one (not the numbers). "
                + self.answer_prompt(example))
