"""What every pz puzzle supplies (`Puzzle`), and the answer grid every one is written in: the last
`<answer>...</answer>`, one grid row per line, cells separated by spaces (a digit or letter grid may leave the spaces
out; a number grid may not).

>>> parse_answer("<answer>\\n# . #\\n. # .\\n</answer>", numbers=False)
[['#', '.', '#'], ['.', '#', '.']]
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, ClassVar

from bc_common.answer_blocks import last_tagged

Grid = list[list[str]]
MAX_SIDE = 16  # rows and cells a row: a parsed answer longer than that is no answer to any pz puzzle
ANSWER = ("End your reply with the completed grid inside answer tags, one row per line, cells separated by spaces, "
          "for example:\n<answer>\n{example}\n...\n</answer>")


@dataclass(frozen=True)
class Level:
    """A difficulty group: its name, the puzzle's parameters, its share of the default mix."""

    name: str
    params: dict[str, Any] = field(default_factory=dict)
    ratio: float = 0.0


def parse_answer(text: str, *, numbers: bool) -> Grid | None:
    """The cells of the grid in the last answer block (None when there is none or it is too large)."""
    body = last_tagged(text, max_length=4096)
    if body is None:
        return None
    grid = []
    for raw in body.split("\n"):
        line = raw.replace("|", " ").replace(",", " ")
        cells = line.split() if numbers else list("".join(line.split()))
        if cells:
            grid.append(cells)
        if len(grid) > MAX_SIDE or len(cells) > MAX_SIDE:
            return None
    return grid or None


def grid_text(grid: Grid) -> str:
    return "\n".join(" ".join(row) for row in grid)


def shape_problem(grid: Grid, rows: int, cols: int, allowed: set[str] | None = None) -> list[str]:
    """[] when `grid` is `rows` x `cols` (and every cell one of `allowed`), else the one sentence saying why not."""
    if len(grid) != rows or any(len(r) != cols for r in grid):
        return [f"the grid must be {rows} rows of {cols} cells"]
    if allowed is not None:
        bad = sorted({c for r in grid for c in r if c not in allowed})
        if bad:
            return [f"cells must be one of {' '.join(sorted(allowed))}, not {' '.join(bad[:5])}"]
    return []


def neighbours(i: int, j: int, rows: int, cols: int, diagonal: bool = False) -> list[tuple[int, int]]:
    """The orthogonal (and with `diagonal` the diagonal) neighbours of (i, j) inside the grid."""
    steps = [(-1, 0), (1, 0), (0, -1), (0, 1)]
    if diagonal:
        steps += [(-1, -1), (-1, 1), (1, -1), (1, 1)]
    return [(i + a, j + b) for a, b in steps if 0 <= i + a < rows and 0 <= j + b < cols]


class Puzzle:
    """One puzzle type. `draw` makes an identity with exactly one solution (None: draw again), `solve` finds it,
    `violations` lists the rules a grid breaks ([] for a solution), `start` is the grid as the puzzle shows it
    (givens kept, the rest `blank`), `lazy` the grid of the declared lazy baseline."""

    name: ClassVar[str]
    title: ClassVar[str]
    numbers: ClassVar[bool] = False  # cells are numbers of more than one digit: spaces separate them
    levels: ClassVar[tuple[Level, ...]]
    sizes: ClassVar[tuple[int, ...]]
    blank: ClassVar[str] = "."
    lazy_doc: ClassVar[str]
    conformance: ClassVar[dict[str, Any]] = {}

    def draw(self, rng: random.Random, size: int, drop: float) -> dict[str, Any] | None:
        raise NotImplementedError

    def prompt(self, identity: dict[str, Any]) -> str:
        raise NotImplementedError

    def solve(self, identity: dict[str, Any]) -> Grid | None:
        raise NotImplementedError

    def violations(self, grid: Grid, identity: dict[str, Any]) -> list[str]:
        raise NotImplementedError

    def symbols(self, identity: dict[str, Any]) -> list[str]:
        """The symbols a free cell may hold (random play and corruption draw from them)."""
        raise NotImplementedError

    def start(self, identity: dict[str, Any]) -> Grid:
        raise NotImplementedError

    def lazy(self, identity: dict[str, Any], rng: random.Random) -> Grid:
        raise NotImplementedError

    def answer_prompt(self, example: Grid) -> str:
        return ANSWER.format(example=grid_text(example[:2]))


class Shaded:
    """Mixin of the puzzles that shade cells of an empty n x n grid: `#` shaded, `.` not; none shown at the start."""

    def symbols(self, identity: dict[str, Any]) -> list[str]:
        return ["#", "."]

    def start(self, identity: dict[str, Any]) -> Grid:
        n = identity["size"]
        return [["."] * n for _ in range(n)]
