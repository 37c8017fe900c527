"""Random cuts of the grid into connected regions (aquarium, norinori, suguru), and how a prompt shows them."""
from __future__ import annotations

import random
import string

from ..puzzle import neighbours

Cell = tuple[int, int]
LABELS = string.ascii_letters + string.digits


def partition(rng: random.Random, n: int, low: int, high: int) -> list[list[Cell]]:
    """A cut of the n x n grid into connected regions of `low` to `high` cells, grown from random seeds (a region
    that cannot reach `low` is merged into a neighbour, so a few may be larger than `high`), sorted."""
    owner: dict[Cell, int] = {}
    grown: list[list[Cell]] = []
    cells = [(i, j) for i in range(n) for j in range(n)]
    rng.shuffle(cells)
    for c in cells:
        if c in owner:
            continue
        target = rng.randint(low, high)
        region = [c]
        owner[c] = len(grown)
        while len(region) < target:
            free = sorted({d for e in region for d in neighbours(*e, n, n) if d not in owner})
            if not free:
                break
            d = rng.choice(free)
            owner[d] = len(grown)
            region.append(d)
        grown.append(region)
    for k, region in enumerate(grown):
        if 0 < len(region) < low:
            near = sorted({owner[d] for e in region for d in neighbours(*e, n, n) if owner[d] != k})
            into = rng.choice(near)
            for e in region:
                owner[e] = into
            grown[into] += region
            grown[k] = []
    return sorted(sorted(r) for r in grown if r)


def region_map(regions: list[list[list[int]]] | list[list[Cell]], n: int) -> list[list[str]]:
    """The grid with each cell's region letter (a, b, ..., z, A, ...)."""
    label = [["?"] * n for _ in range(n)]
    for k, region in enumerate(regions):
        for i, j in region:
            label[i][j] = LABELS[k % len(LABELS)]
    return label


def map_text(regions: list[list[list[int]]], n: int) -> str:
    return "\n".join(" ".join(r) for r in region_map(regions, n))
