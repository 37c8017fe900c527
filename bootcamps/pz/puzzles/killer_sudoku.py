"""Killer sudoku: a sudoku with no given digits, cut into cages; each cage's digits differ and add up to its sum.
The knob `drop` makes the cages larger (fewer sums to go on)."""
from __future__ import annotations

import itertools
import random
from functools import cache
from typing import Any

from ..puzzle import Grid, Level
from .kenken import LABELS, cages
from .latin import CagedLatin, cyclic, latin_cnf, latin_problems, random_grid

BOXES = {4: (2, 2), 6: (2, 3), 8: (2, 4), 9: (3, 3)}
CUTS = 50  # random cuts tried on one grid for one whose cages repeat no digit


def weights(drop: float) -> tuple[float, ...]:
    """Cage-size weights (1, 2, 3, 4 cells): (1, 5, 4, 1) at drop 0, (0, 2, 4, 3) at drop 1."""
    return tuple(a + (b - a) * drop for a, b in zip((1, 5, 4, 1), (0, 2, 4, 3), strict=True))


@cache
def sums(n: int, k: int, total: int) -> tuple[tuple[int, ...], ...]:
    """Every ordering of k different digits of 1..n that adds up to `total`."""
    return tuple(t for t in itertools.permutations(range(1, n + 1), k) if sum(t) == total)


class KillerSudoku(CagedLatin):
    name = "killer_sudoku"
    title = "Killer sudoku"
    sizes = tuple(BOXES)
    # `drop` shifts the cages' sizes from 1-2 cells to 3-4 (fewer sums); 9x9 takes 2.7 s a row (load 11)
    levels = (Level("easy", {"size": 6}, 0.3), Level("medium", {"size": 6, "drop": 0.5}, 0.4),
              Level("hard", {"size": 6, "drop": 1.0}, 0.3))
    lazy_doc = "the textbook sudoku grid (band shifts), the cages ignored"

    def _cnf(self, identity: dict[str, Any]) -> tuple[list, list]:
        n = identity["size"]
        cnf, x = latin_cnf(n, BOXES[n])
        for cage in identity["cages"]:
            cnf.table([x[i][j] for i, j in cage["cells"]], sums(n, len(cage["cells"]), cage["sum"]))
        return cnf.clauses, x

    def draw(self, rng: random.Random, size: int, drop: float) -> dict[str, Any] | None:
        n = size
        grid = random_grid(rng, n, BOXES[n])
        for _ in range(CUTS):
            cut = cages(rng, n, weights(drop))
            if all(len({grid[i][j] for i, j in cells}) == len(cells) for cells in cut):
                break
        else:
            return None
        found = [{"cells": [list(c) for c in cells], "sum": sum(int(grid[i][j]) for i, j in cells)} for cells in cut]
        return {"cages": found} if self.proves_unique({"size": n, "cages": found}, grid) else None

    def violations(self, grid: Grid, identity: dict[str, Any]) -> list[str]:
        n = identity["size"]
        found = latin_problems(grid, n, BOXES.get(n))
        if found:
            return found
        for k, cage in enumerate(identity["cages"]):
            digits = [int(grid[i][j]) for i, j in cage["cells"]]
            if sum(digits) != cage["sum"] or len(set(digits)) != len(digits):
                found.append(f"cage {LABELS[k]} must hold different digits adding up to {cage['sum']}")
        return found

    def lazy(self, identity: dict[str, Any], rng: random.Random) -> Grid:
        return cyclic(identity["size"], BOXES[identity["size"]])

    def prompt(self, identity: dict[str, Any]) -> str:
        n = identity["size"]
        h, w = BOXES[n]
        label = [["?"] * n for _ in range(n)]
        for k, cage in enumerate(identity["cages"]):
            for i, j in cage["cells"]:
                label[i][j] = LABELS[k]
        legend = ", ".join(f"{LABELS[k]} = {cage['sum']}" for k, cage in enumerate(identity["cages"]))
        example = [self.symbols(identity), self.symbols(identity)[w:] + self.symbols(identity)[:w]]
        return (f"Solve this {n}x{n} killer sudoku. Put a digit from 1 to {n} in every cell so that every row, every "
                f"column and every {h}x{w} box (boxes tile the grid from the top left) holds each digit exactly "
                f"once. The grid is cut into cages (cells with the same letter): the digits of a cage are all "
                f"different and add up to the cage's sum. No digit is given.\n\nCages:\n"
                + "\n".join(" ".join(r) for r in label) + f"\n\nSums: {legend}\n\nWrite the digits. "
                + self.answer_prompt(example))
