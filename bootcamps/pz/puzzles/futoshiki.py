"""Futoshiki (Tatham's Unequal): a Latin square of 1..n with inequality signs between some neighbouring cells and a
few given digits; harder groups keep fewer signs."""
from __future__ import annotations

import random
from typing import Any

from ..puzzle import Grid, Level, Puzzle
from ..sat import minimise, solve
from .latin import cyclic, decode, latin_cnf, latin_problems, random_grid, shown

Pair = tuple[tuple[int, int], tuple[int, int]]


def pairs(n: int) -> list[Pair]:
    """Every pair of orthogonal neighbours, the upper or left cell first."""
    return [((i, j), (i, j + 1)) for i in range(n) for j in range(n - 1)] + \
           [((i, j), (i + 1, j)) for i in range(n - 1) for j in range(n)]


class Futoshiki(Puzzle):
    name = "futoshiki"
    title = "Futoshiki"
    sizes = (4, 5, 6, 7)
    # `drop`: the share of the removable signs put back after the minimal set (1.0 keeps every sign)
    levels = (Level("easy", {"size": 5, "drop": 0.5}, 0.3), Level("medium", {"size": 5, "drop": 0.1}, 0.4),
              Level("hard", {"size": 6, "drop": 0.1}, 0.3))
    lazy_doc = "the textbook Latin square (row i is 1..n shifted by i), the signs and givens ignored"

    def _clauses(self, identity: dict[str, Any]) -> tuple[list, dict, list]:
        n = identity["size"]
        cnf, x = latin_cnf(n)
        clues: dict[object, list] = {}
        for (a, b), (c, d), sign in identity["signs"]:
            small, big = ((a, b), (c, d)) if sign == "<" else ((c, d), (a, b))
            clues[(a, b, c, d)] = [[-x[small[0]][small[1]][u], -x[big[0]][big[1]][v]]
                                   for u in range(1, n + 1) for v in range(1, u + 1)]
        for i, row in enumerate(identity["givens"]):
            for j, c in enumerate(row):
                if c != ".":
                    clues[(i, j)] = [[x[i][j][int(c)]]]
        return cnf.clauses, clues, x

    def draw(self, rng: random.Random, size: int, drop: float) -> dict[str, Any] | None:
        n = size
        grid = random_grid(rng, n)
        signs = [[list(p), list(q), "<" if grid[p[0]][p[1]] < grid[q[0]][q[1]] else ">"] for p, q in pairs(n)]
        base, clues, x = self._clauses({"size": n, "signs": signs, "givens": ["".join(r) for r in grid]})
        model = {lit if str(v) == grid[i][j] else -lit for i, row in enumerate(x) for j, cell in enumerate(row)
                 for v, lit in cell.items()}
        keys = list(clues)
        givens, sign_keys = [k for k in keys if len(k) == 2], [k for k in keys if len(k) == 4]
        rng.shuffle(givens)
        rng.shuffle(sign_keys)
        # every given that can go goes first (most puzzles keep none or one), then the signs, `drop` put back
        kept_givens = minimise(base, clues, model, shown(x), givens, batch=len(givens))
        if kept_givens is None:
            return None
        kept = set(minimise(base, {k: clues[k] for k in kept_givens}, model, shown(x), sign_keys, keep=drop) or [])
        return {"signs": [s for s, k in zip(signs, keys[:len(signs)], strict=True) if k in kept],
                "givens": ["".join(grid[i][j] if (i, j) in kept else "." for j in range(n)) for i in range(n)]}

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
        for (a, b), (c, d), sign in identity["signs"]:
            left, right = int(grid[a][b]), int(grid[c][d])
            if (left < right) != (sign == "<"):
                found.append(f"row {a + 1}, column {b + 1} must be {'less' if sign == '<' else 'greater'} than "
                             f"row {c + 1}, column {d + 1}")
        return found

    def symbols(self, identity: dict[str, Any]) -> list[str]:
        return [str(v) for v in range(1, identity["size"] + 1)]

    def start(self, identity: dict[str, Any]) -> Grid:
        return [list(row) for row in identity["givens"]]

    def lazy(self, identity: dict[str, Any], rng: random.Random) -> Grid:
        return cyclic(identity["size"])

    def prompt(self, identity: dict[str, Any]) -> str:
        n = identity["size"]
        # cells on even text rows and columns; a sign between two cells sits in the text cell between them
        text = [[" "] * (2 * n - 1) for _ in range(2 * n - 1)]
        for i, row in enumerate(identity["givens"]):
            for j, c in enumerate(row):
                text[2 * i][2 * j] = c
        for (a, b), (c, _), sign in identity["signs"]:
            if a == c:
                text[2 * a][2 * b + 1] = sign
            else:
                text[2 * a + 1][2 * b] = "^" if sign == "<" else "v"
        board = "\n".join(" ".join(r).rstrip() for r in text)
        example = [self.symbols(identity), self.symbols(identity)[1:] + ["1"]]
        return (f"Solve this {n}x{n} futoshiki puzzle. Put a number from 1 to {n} in every cell so that every row "
                f"and every column holds each number exactly once. A < or > between two cells of a row says which "
                f"is smaller (the sign points to the smaller one). Between two cells of a column, ^ means the upper "
                f"cell is smaller than the lower one and v means it is greater. A digit is a given cell; . is "
                f"empty.\n\n{board}\n\nWrite the numbers as digits, without the signs. " + self.answer_prompt(example))
