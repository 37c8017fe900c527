"""fl/wang_tiling: fill a square grid with Wang tiles so that touching edges share a colour and the border shows the
given colours (any such tiling scores; checked edge by edge)."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Task, numbers

COLOURS = "RGBYKW"  # red, green, blue, yellow, black, white
SIDES = ("north", "east", "south", "west")
MAX_TILINGS = 20  # a grid with more tilings than this is drawn again


def fits(tiles: list[str], border: dict[str, str], grid: list[list[int]]) -> str | None:
    """Why `grid` (tile numbers from 0) is not a tiling; None when every edge matches. A tile is its colours in
    the order north, east, south, west; `border[side]` lists the outer colours left to right / top to bottom."""
    k = len(grid)
    for r in range(k):
        for c in range(k):
            t = tiles[grid[r][c]]
            where = f"row {r + 1}, column {c + 1}"
            if r == 0 and t[0] != border["north"][c]:
                return f"{where}: north edge {t[0]}, the border shows {border['north'][c]}"
            if r == k - 1 and t[2] != border["south"][c]:
                return f"{where}: south edge {t[2]}, the border shows {border['south'][c]}"
            if c == 0 and t[3] != border["west"][r]:
                return f"{where}: west edge {t[3]}, the border shows {border['west'][r]}"
            if c == k - 1 and t[1] != border["east"][r]:
                return f"{where}: east edge {t[1]}, the border shows {border['east'][r]}"
            if c + 1 < k and t[1] != tiles[grid[r][c + 1]][3]:
                return f"{where}: east edge {t[1]} meets west edge {tiles[grid[r][c + 1]][3]}"
            if r + 1 < k and t[2] != tiles[grid[r + 1][c]][0]:
                return f"{where}: south edge {t[2]} meets north edge {tiles[grid[r + 1][c]][0]}"
    return None


def greedy(tiles: list[str], border: dict[str, str], k: int) -> list[list[int]] | None:
    """Row by row, the first tile that fits the border and the tiles placed so far, never going back."""
    grid: list[list[int]] = []
    for r in range(k):
        row: list[int] = []
        for c in range(k):
            for i, t in enumerate(tiles):
                if ((r > 0 or t[0] == border["north"][c]) and (r == 0 or t[0] == tiles[grid[r - 1][c]][2])
                        and (c > 0 or t[3] == border["west"][r]) and (c == 0 or t[3] == tiles[row[c - 1]][1])
                        and (r < k - 1 or t[2] == border["south"][c]) and (c < k - 1 or t[1] == border["east"][r])):
                    row.append(i)
                    break
            else:
                return None
        grid.append(row)
    return grid


def count_tilings(tiles: list[str], border: dict[str, str], k: int, stop: int) -> int:
    """How many tilings there are (backtracking, row-major), counting up to `stop`."""
    grid = [[-1] * k for _ in range(k)]
    found = 0

    def place(cell: int) -> None:
        nonlocal found
        if found >= stop:
            return
        if cell == k * k:
            found += 1
            return
        r, c = divmod(cell, k)
        for i, t in enumerate(tiles):
            if ((t[0] == border["north"][c]) if r == 0 else (t[0] == tiles[grid[r - 1][c]][2])) and \
                    ((t[3] == border["west"][r]) if c == 0 else (t[3] == tiles[grid[r][c - 1]][1])) and \
                    (r < k - 1 or t[2] == border["south"][c]) and (c < k - 1 or t[1] == border["east"][r]):
                grid[r][c] = i
                place(cell + 1)
        grid[r][c] = -1

    place(0)
    return found


class WangTiling(Task):
    name = "wang_tiling"
    title = "Wang tiling"
    knobs = {"size": Knob(4, 2, 7, "the grid is size x size"), "colours": Knob(3, 2, 6, "edge colours"),
             "extra": Knob(4, 0, 12, "tiles added that the planted tiling does not use")}
    groups = {"easy": {"size": 3, "colours": 3, "extra": 3}, "medium": {"size": 4, "colours": 4, "extra": 4},
              "hard": {"size": 5, "colours": 5, "extra": 5}}
    answer_format = ("the tile numbers row by row, top row first, rows separated by '/', e.g. "
                     "<answer>1 4 2 / 3 3 5 / 2 6 1</answer> for a 3 x 3 grid.")
    baselines = {"greedy": "row by row, the first tile that fits what is placed, never going back",
                 "one_tile": "the first tile everywhere",
                 "tile_order": "tiles 1, 2, 3, ... in reading order, starting over when they run out"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        k, colours = p.size, COLOURS[:p.colours]
        horizontal = [[rng.choice(colours) for _ in range(k)] for _ in range(k + 1)]  # edge above row r, column c
        vertical = [[rng.choice(colours) for _ in range(k + 1)] for _ in range(k)]  # edge left of row r, column c
        planted = [[horizontal[r][c] + vertical[r][c + 1] + horizontal[r + 1][c] + vertical[r][c] for c in range(k)]
                   for r in range(k)]
        tiles = sorted({t for row in planted for t in row})
        used = len(tiles)
        while len(tiles) < used + p.extra:
            t = "".join(rng.choice(colours) for _ in SIDES)
            if t not in tiles:
                tiles.append(t)
        rng.shuffle(tiles)
        border = {"north": "".join(horizontal[0]), "south": "".join(horizontal[k]),
                  "west": "".join(vertical[r][0] for r in range(k)), "east": "".join(vertical[r][k] for r in range(k))}
        if count_tilings(tiles, border, k, MAX_TILINGS + 1) > MAX_TILINGS:
            return None  # so many tilings that little search is needed
        index = {t: i for i, t in enumerate(tiles)}
        inst = {"tiles": tiles, "border": border, "solution": [[index[t] + 1 for t in row] for row in planted]}
        return None if self.any_baseline_accepted(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        k = len(inst["border"]["north"])
        tiles = "\n".join(f"tile {i}: " + ", ".join(f"{side} {colour}" for side, colour in zip(SIDES, t, strict=True))
                          for i, t in enumerate(inst["tiles"], start=1))
        b = inst["border"]
        return (f"Wang tiles (edge colours R, G, B, ...; tiles may not be rotated, each may be used any number of "
                f"times):\n{tiles}\n\nFill a {k} x {k} grid so that every two neighbouring tiles show the same colour "
                f"on their shared edge, and the outer edges show the border colours:\nnorth border, left to right: "
                f"{' '.join(b['north'])}\nsouth border, left to right: {' '.join(b['south'])}\nwest border, top to "
                f"bottom: {' '.join(b['west'])}\neast border, top to bottom: {' '.join(b['east'])}")

    def show(self, answer: list[list[int]]) -> str:
        return " / ".join(" ".join(map(str, row)) for row in answer)

    def read(self, body: str) -> list[list[int]] | None:
        rows = [numbers(row) for row in body.replace("\n", "/").split("/") if row.strip()]
        if not rows or len(rows) > 20 or any(r is None for r in rows):
            return None
        return rows  # type: ignore[return-value]

    def check(self, inst: dict[str, Any], answer: list[list[int]]) -> str | None:
        k, n = len(inst["border"]["north"]), len(inst["tiles"])
        if len(answer) != k or any(len(row) != k for row in answer):
            return f"the grid must have {k} rows of {k} tiles"
        if not all(1 <= t <= n for row in answer for t in row):
            return f"tile numbers run from 1 to {n}"
        return fits(inst["tiles"], inst["border"], [[t - 1 for t in row] for row in answer])

    def corrupt(self, inst: dict[str, Any], answer: list[list[int]], rng: random.Random) -> list[list[int]]:
        grid = [list(row) for row in answer]
        r, c = rng.randrange(len(grid)), rng.randrange(len(grid))
        grid[r][c] = grid[r][c] % len(inst["tiles"]) + 1  # one cell holds the next tile
        return grid

    def baseline_greedy(self, inst: dict[str, Any], rng: random.Random) -> list[list[int]] | None:
        k = len(inst["border"]["north"])
        grid = greedy(inst["tiles"], inst["border"], k)
        return None if grid is None else [[t + 1 for t in row] for row in grid]

    def baseline_one_tile(self, inst: dict[str, Any], rng: random.Random) -> list[list[int]]:
        k = len(inst["border"]["north"])
        return [[1] * k for _ in range(k)]

    def baseline_tile_order(self, inst: dict[str, Any], rng: random.Random) -> list[list[int]]:
        k, n = len(inst["border"]["north"]), len(inst["tiles"])
        return [[(r * k + c) % n + 1 for c in range(k)] for r in range(k)]
