"""Akari (Light Up; Tatham's Light Up): put lamps on white cells so that every white cell is lit, no lamp lights
another, and a numbered black cell has that many lamps beside it."""
from __future__ import annotations

import random
from typing import Any

from ..puzzle import Grid, Level, Puzzle, neighbours, shape_problem
from ..sat import CNF, solve, thin, unique

LAMP, BLACK = "L", "#"


def is_black(c: str) -> bool:
    return c == BLACK or c.isdigit()


def segments(board: list[str]) -> list[list[tuple[int, int]]]:
    """The runs of white cells between black cells or edges, in every row and column."""
    n = len(board)
    out = []
    for lines in ([[(i, j) for j in range(n)] for i in range(n)], [[(i, j) for i in range(n)] for j in range(n)]):
        for line in lines:
            run: list[tuple[int, int]] = []
            for cell in line:
                if is_black(board[cell[0]][cell[1]]):
                    if run:
                        out.append(run)
                    run = []
                else:
                    run.append(cell)
            if run:
                out.append(run)
    return out


class Akari(Puzzle):
    name = "akari"
    title = "Akari (Light Up)"
    sizes = (5, 6, 7, 8, 10)
    levels = (Level("easy", {"size": 6}, 0.3), Level("medium", {"size": 7, "drop": 0.2}, 0.4),
              Level("hard", {"size": 8, "drop": 0.35}, 0.3))
    lazy_doc = "a lamp on every white cell still dark, in reading order (every cell lit, the numbers ignored)"

    def _clauses(self, board: list[str]) -> tuple[list, dict, dict[tuple[int, int], int]]:
        n = len(board)
        cnf = CNF()
        lamp = {(i, j): cnf.var() for i in range(n) for j in range(n) if not is_black(board[i][j])}
        lit_by: dict[tuple[int, int], list[int]] = {c: [] for c in lamp}
        for run in segments(board):
            cnf.at_most([lamp[c] for c in run], 1)
            for c in run:
                lit_by[c] += [lamp[d] for d in run]
        for lits in lit_by.values():
            cnf.add(sorted(set(lits)))
        base = list(cnf.clauses)
        clues = {}
        for i, row in enumerate(board):
            for j, c in enumerate(row):
                if c.isdigit():
                    start = len(cnf.clauses)
                    cnf.exactly([lamp[d] for d in neighbours(i, j, n, n) if d in lamp], int(c))
                    clues[(i, j)] = cnf.clauses[start:]
        return base, clues, lamp

    def draw(self, rng: random.Random, size: int, drop: float) -> dict[str, Any] | None:
        n = size
        black = {(i, j) for i in range(n) for j in range(n) if rng.random() < 0.2}
        board = ["".join(BLACK if (i, j) in black else "." for j in range(n)) for i in range(n)]
        grid = self.lazy({"board": board}, rng, shuffled=True)
        full = ["".join(str(sum(grid[a][b] == LAMP for a, b in neighbours(i, j, n, n))) if (i, j) in black else "."
                        for j in range(n)) for i in range(n)]
        base, clues, lamp = self._clauses(full)
        model = {v if grid[i][j] == LAMP else -v for (i, j), v in lamp.items()}
        shown = list(lamp.values())
        if not unique(base + [c for cs in clues.values() for c in cs], model, shown):
            return None
        kept = set(thin(base, clues, model, shown, list(clues), drop, rng))
        return {"board": ["".join(c if not c.isdigit() or (i, j) in kept else BLACK for j, c in enumerate(row))
                          for i, row in enumerate(full)]}

    def solve(self, identity: dict[str, Any]) -> Grid | None:
        base, clues, lamp = self._clauses(identity["board"])
        model = solve(base + [c for cs in clues.values() for c in cs])
        if model is None:
            return None
        return [[LAMP if lamp.get((i, j)) in model else c for j, c in enumerate(row)]
                for i, row in enumerate(identity["board"])]

    def violations(self, grid: Grid, identity: dict[str, Any]) -> list[str]:
        board = identity["board"]
        n = len(board)
        found = shape_problem(grid, n, n)
        if found:
            return found
        for i, row in enumerate(board):
            for j, c in enumerate(row):
                if is_black(c) and grid[i][j] != c:
                    found.append(f"row {i + 1}, column {j + 1} is the black cell {c}: copy it as shown")
                elif not is_black(c) and grid[i][j] not in (LAMP, "."):
                    found.append(f"row {i + 1}, column {j + 1} must be {LAMP} or .")
        if found:
            return found
        for run in segments(board):
            lamps = [c for c in run if grid[c[0]][c[1]] == LAMP]
            if len(lamps) > 1:
                (a, b), (c, d) = lamps[:2]
                found.append(f"the lamps at row {a + 1}, column {b + 1} and row {c + 1}, column {d + 1} light each "
                             "other")
        lit = set()
        for run in segments(board):
            if any(grid[a][b] == LAMP for a, b in run):
                lit.update(run)
        dark = [(i, j) for i in range(n) for j in range(n) if not is_black(board[i][j]) and (i, j) not in lit]
        if dark:
            found.append(f"{len(dark)} white cells are dark, e.g. row {dark[0][0] + 1}, column {dark[0][1] + 1}")
        for i, row in enumerate(board):
            for j, c in enumerate(row):
                if c.isdigit() and sum(grid[a][b] == LAMP for a, b in neighbours(i, j, n, n)) != int(c):
                    found.append(f"the black cell at row {i + 1}, column {j + 1} needs {c} lamps beside it")
        return found

    def symbols(self, identity: dict[str, Any]) -> list[str]:
        return [LAMP, "."]

    def start(self, identity: dict[str, Any]) -> Grid:
        return [list(row) for row in identity["board"]]

    def lazy(self, identity: dict[str, Any], rng: random.Random, shuffled: bool = False) -> Grid:
        board = identity["board"]
        n = len(board)
        grid = [list(row) for row in board]
        cells = [(i, j) for i in range(n) for j in range(n) if not is_black(board[i][j])]
        if shuffled:
            rng.shuffle(cells)
        runs = segments(board)
        lit: set[tuple[int, int]] = set()
        for c in cells:
            if c not in lit:
                grid[c[0]][c[1]] = LAMP
                for run in runs:
                    if c in run:
                        lit.update(run)
        return grid

    def prompt(self, identity: dict[str, Any]) -> str:
        n = len(identity["board"])
        board = "\n".join(" ".join(row) for row in identity["board"])
        example = [[LAMP, "."] * (n // 2) + [LAMP] * (n % 2), ["."] * n]
        return (f"Solve this {n}x{n} akari (light up) puzzle. . is a white cell; # and the digits are black cells. "
                f"Put lamps on some white cells. A lamp lights its own cell and every white cell in its row and "
                f"column up to the next black cell or the edge. Every white cell must be lit; no lamp may be lit "
                f"by another lamp; a black cell with a digit has exactly that many lamps directly above, below, "
                f"left and right of it (a # says nothing).\n\n{board}\n\nWrite {LAMP} for a lamp, . for a white "
                "cell without a lamp, and every black cell as shown. " + self.answer_prompt(example))
