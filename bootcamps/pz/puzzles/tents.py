"""Tents (Tatham's Tents): pair every tree with a tent on a cell next to it; no two tents touch, not even
diagonally; the numbers count the tents of each row and column."""
from __future__ import annotations

import random
from typing import Any

from ..puzzle import Grid, Level, Puzzle, neighbours, shape_problem
from ..sat import CNF, solve, unique

TREE, TENT = "T", "A"


def matched(tents: list[tuple[int, int]], trees: list[tuple[int, int]]) -> bool:
    """Whether every tent can be paired with its own tree orthogonally next to it (Kuhn's augmenting paths)."""
    if len(tents) != len(trees):
        return False
    owner: dict[tuple[int, int], tuple[int, int]] = {}

    def place(tent: tuple[int, int], seen: set[tuple[int, int]]) -> bool:
        for tree in trees:
            if abs(tree[0] - tent[0]) + abs(tree[1] - tent[1]) == 1 and tree not in seen:
                seen.add(tree)
                if tree not in owner or place(owner[tree], seen):
                    owner[tree] = tent
                    return True
        return False

    return all(place(tent, set()) for tent in tents)


class Tents(Puzzle):
    name = "tents"
    title = "Tents"
    sizes = (5, 6, 7, 8, 10)
    levels = (Level("easy", {"size": 6}, 0.3), Level("medium", {"size": 8}, 0.4), Level("hard", {"size": 10}, 0.3))
    lazy_doc = "each tree in reading order gets a tent on its first free side that touches no tent yet (the row " \
               "and column counts ignored)"

    def _cnf(self, identity: dict[str, Any]) -> tuple[CNF, dict[tuple[int, int], int]]:
        n = identity["size"]
        trees = [(i, j) for i, row in enumerate(identity["trees"]) for j, c in enumerate(row) if c == TREE]
        cnf = CNF()
        tent = {(i, j): cnf.var() for i in range(n) for j in range(n) if identity["trees"][i][j] != TREE}
        for (i, j), v in tent.items():
            for c in neighbours(i, j, n, n, diagonal=True):
                if c in tent and c > (i, j):
                    cnf.add([-v, -tent[c]])
        for k in range(n):
            cnf.exactly([tent[(k, j)] for j in range(n) if (k, j) in tent], identity["rows"][k])
            cnf.exactly([tent[(i, k)] for i in range(n) if (i, k) in tent], identity["cols"][k])
        edges: dict[tuple[int, int], list[int]] = {c: [] for c in tent}
        for tree in trees:
            mine = []
            for c in neighbours(*tree, n, n):
                if c in tent:
                    e = cnf.var()
                    cnf.add([-e, tent[c]])
                    edges[c].append(e)
                    mine.append(e)
            cnf.exactly_one(mine)
        for c, v in tent.items():
            cnf.add([-v, *edges[c]])
            cnf.at_most(edges[c], 1)
        return cnf, tent

    def draw(self, rng: random.Random, size: int, drop: float) -> dict[str, Any] | None:
        n = size
        cells = [(i, j) for i in range(n) for j in range(n)]
        rng.shuffle(cells)
        tents: set[tuple[int, int]] = set()
        trees: set[tuple[int, int]] = set()
        for c in cells[: n * n // 4]:
            if c in trees or any(d in tents for d in neighbours(*c, n, n, diagonal=True)):
                continue
            free = [d for d in neighbours(*c, n, n) if d not in tents and d not in trees]
            if free:
                tents.add(c)
                trees.add(rng.choice(free))
        identity = {"size": n, "trees": ["".join(TREE if (i, j) in trees else "." for j in range(n)) for i in range(n)],
                    "rows": [sum((i, j) in tents for j in range(n)) for i in range(n)],
                    "cols": [sum((i, j) in tents for i in range(n)) for j in range(n)]}
        cnf, tent = self._cnf(identity)
        model = {v if c in tents else -v for c, v in tent.items()}
        return {k: identity[k] for k in ("trees", "rows", "cols")} \
            if unique(cnf.clauses, model, list(tent.values())) else None

    def solve(self, identity: dict[str, Any]) -> Grid | None:
        cnf, tent = self._cnf(identity)
        model = solve(cnf.clauses)
        if model is None:
            return None
        return [[TENT if tent.get((i, j)) in model else c for j, c in enumerate(row)]
                for i, row in enumerate(identity["trees"])]

    def violations(self, grid: Grid, identity: dict[str, Any]) -> list[str]:
        n = identity["size"]
        found = shape_problem(grid, n, n, {TREE, TENT, "."})
        if found:
            return found
        for i, row in enumerate(identity["trees"]):
            for j, c in enumerate(row):
                if (c == TREE) != (grid[i][j] == TREE):
                    found.append(f"row {i + 1}, column {j + 1}: trees stay where they are, and only there")
        tents = [(i, j) for i in range(n) for j in range(n) if grid[i][j] == TENT]
        for i, j in tents:
            if any(grid[a][b] == TENT for a, b in neighbours(i, j, n, n, diagonal=True) if (a, b) > (i, j)):
                found.append(f"the tent at row {i + 1}, column {j + 1} touches another tent")
        for k in range(n):
            if sum(c == TENT for c in grid[k]) != identity["rows"][k]:
                found.append(f"row {k + 1} must hold {identity['rows'][k]} tents")
            if sum(grid[i][k] == TENT for i in range(n)) != identity["cols"][k]:
                found.append(f"column {k + 1} must hold {identity['cols'][k]} tents")
        trees = [(i, j) for i in range(n) for j in range(n) if grid[i][j] == TREE]
        if not matched(tents, trees):
            found.append("the tents cannot be paired one to one with trees next to them")
        return found

    def symbols(self, identity: dict[str, Any]) -> list[str]:
        return [TENT, "."]

    def start(self, identity: dict[str, Any]) -> Grid:
        return [list(row) for row in identity["trees"]]

    def lazy(self, identity: dict[str, Any], rng: random.Random) -> Grid:
        n = identity["size"]
        grid = self.start(identity)
        for i in range(n):
            for j in range(n):
                if grid[i][j] != TREE:
                    continue
                for a, b in neighbours(i, j, n, n):
                    if grid[a][b] == "." and not any(grid[c][d] == TENT
                                                     for c, d in neighbours(a, b, n, n, diagonal=True)):
                        grid[a][b] = TENT
                        break
        return grid

    def prompt(self, identity: dict[str, Any]) -> str:
        n = identity["size"]
        lines = [" ".join(row) + f"   {identity['rows'][i]}" for i, row in enumerate(identity["trees"])]
        lines += ["", " ".join(map(str, identity["cols"]))]
        example = [[TREE, TENT] + ["."] * (n - 2), ["."] * n]
        return (f"Solve this {n}x{n} tents puzzle. T is a tree. Put tents on empty cells so that every tree has "
                f"its own tent next to it (above, below, left or right of it; each tent belongs to exactly one tree, "
                f"so there are as many tents as trees), no two tents touch each other, not even diagonally, and "
                f"the number right of each row and below each column is how many tents it holds.\n\n"
                + "\n".join(lines) + f"\n\nWrite {TENT} for a tent, T for a tree (as given) and . for an empty "
                "cell. " + self.answer_prompt(example))
