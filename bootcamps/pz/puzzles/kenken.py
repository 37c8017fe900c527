"""KenKen (Tatham's Keen): a Latin square cut into cages; each cage's numbers give its target with its operation
(+ sum, x product, - difference and / quotient of a two-cell cage; a one-cell cage is given)."""
from __future__ import annotations

import itertools
import math
import random
import string
from typing import Any

from ..puzzle import Grid, Level, neighbours
from .latin import CagedLatin, cyclic, latin_cnf, latin_problems, random_grid

LABELS = string.ascii_letters


def value(op: str, values: list[int]) -> int | None:
    """The cage's result under `op` (None when the operation does not apply to these values)."""
    if op == "+":
        return sum(values)
    if op == "x":
        return math.prod(values)
    if op == "=":
        return values[0] if len(values) == 1 else None
    if len(values) != 2:
        return None
    big, small = max(values), min(values)
    if op == "-":
        return big - small
    return big // small if big % small == 0 else None


def cages(rng: random.Random, n: int, weights: tuple[int, ...] = (1, 5, 4, 1)) -> list[list[tuple[int, int]]]:
    """A random cut of the grid into connected cages of 1 to 4 cells (drawn with `weights`: mostly 2 or 3)."""
    owner: dict[tuple[int, int], int] = {}
    out: list[list[tuple[int, int]]] = []
    cells = [(i, j) for i in range(n) for j in range(n)]
    rng.shuffle(cells)
    for c in cells:
        if c in owner:
            continue
        size = rng.choices((1, 2, 3, 4), weights=weights)[0]
        cage = [c]
        owner[c] = len(out)
        while len(cage) < size:
            free = [d for e in cage for d in neighbours(*e, n, n) if d not in owner]
            if not free:
                break
            d = rng.choice(sorted(set(free)))
            owner[d] = len(out)
            cage.append(d)
        out.append(sorted(cage))
    return sorted(out)


class Kenken(CagedLatin):
    name = "kenken"
    title = "KenKen"
    sizes = (4, 5, 6)
    # 4x4 has 576 Latin squares (one answer solves 2 of 50 tasks); at 7x7 no random cut of 10 was unique
    levels = (Level("easy", {"size": 5}, 0.5), Level("hard", {"size": 6}, 0.5))
    lazy_doc = "the textbook Latin square (row i is 1..n shifted by i), the cages ignored"

    def _cnf(self, identity: dict[str, Any]) -> tuple[list, list]:
        n = identity["size"]
        cnf, x = latin_cnf(n)
        for cage in identity["cages"]:
            cells = [x[i][j] for i, j in cage["cells"]]
            tuples = [t for t in itertools.product(range(1, n + 1), repeat=len(cells))
                      if value(cage["op"], list(t)) == cage["target"]]
            cnf.table(cells, tuples)
        return cnf.clauses, x

    def draw(self, rng: random.Random, size: int, drop: float) -> dict[str, Any] | None:
        n = size
        grid = random_grid(rng, n)
        found = []
        for cells in cages(rng, n):
            values = [int(grid[i][j]) for i, j in cells]
            ops = ["="] if len(cells) == 1 else ["+", "x"] + (["-"] + (["/"] if value("/", values) else [])
                                                              if len(cells) == 2 else [])
            op = rng.choice(ops)
            found.append({"cells": [list(c) for c in cells], "op": op, "target": value(op, values)})
        return {"cages": found} if self.proves_unique({"size": n, "cages": found}, grid) else None

    def violations(self, grid: Grid, identity: dict[str, Any]) -> list[str]:
        n = identity["size"]
        found = latin_problems(grid, n)
        if found:
            return found
        for k, cage in enumerate(identity["cages"]):
            values = [int(grid[i][j]) for i, j in cage["cells"]]
            if value(cage["op"], values) != cage["target"]:
                found.append(f"cage {LABELS[k]} must make {cage['target']} with {cage['op']}")
        return found

    def lazy(self, identity: dict[str, Any], rng: random.Random) -> Grid:
        return cyclic(identity["size"])

    def prompt(self, identity: dict[str, Any]) -> str:
        n = identity["size"]
        label = [["?"] * n for _ in range(n)]
        legend = []
        for k, cage in enumerate(identity["cages"]):
            for i, j in cage["cells"]:
                label[i][j] = LABELS[k]
            how = "given" if cage["op"] == "=" else f"{cage['op']}"
            legend.append(f"{LABELS[k]}: {cage['target']} {how}")
        example = [self.symbols(identity), self.symbols(identity)[1:] + ["1"]]
        return (f"Solve this {n}x{n} KenKen puzzle. Put a number from 1 to {n} in every cell so that every row and "
                f"every column holds each number exactly once. The grid is cut into cages (cells with the same "
                f"letter); each cage's numbers make its target with its operation: + their sum, x their product, "
                f"- the larger minus the smaller, / the larger divided by the smaller (- and / only in two-cell "
                f"cages; the numbers of a cage may repeat if they are in different rows and columns). A one-cell "
                f"cage marked given holds its target.\n\nCages:\n" + "\n".join(" ".join(r) for r in label)
                + "\n\nTargets:\n" + "\n".join(legend) + "\n\nWrite the numbers as digits. " + self.answer_prompt(example))
