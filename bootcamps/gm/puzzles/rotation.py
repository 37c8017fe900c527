"""Rotation puzzle: coloured tiles on a small grid; `rotate` turns the 2x2 block at a corner a quarter turn
(clockwise or anticlockwise), carrying its four tiles round; the goal is the target pattern the prompt shows.
Turns are reversible, so the optimum comes from breadth-first search over every arrangement of the tiles from the
target (one table per target, kept for its replays); the start is drawn among the arrangements at the group's
distances."""
from __future__ import annotations

import functools
import random
from operator import itemgetter
from typing import Any

from ..core import Knob, MoveError, Puzzle, bfs_distances, greedy_solves

COLOURS = "RGBY"


class Rotation(Puzzle):
    name = "rotation"
    title = "Rotation puzzle: turn 2x2 blocks of coloured tiles into a target pattern"
    tool = "rotate"
    tool_about = "Turn the 2x2 block whose top-left tile is at (row, col) a quarter turn; its four tiles move " \
                 "round. Returns the grid after the turn."
    parameters = {"row": {"type": "integer", "description": "Row of the block's top-left tile, from 1 at the top."},
                  "col": {"type": "integer", "description": "Column of the block's top-left tile, from 1 at the "
                                                            "left."},
                  "direction": {"type": "string", "enum": ["clockwise", "anticlockwise"],
                                "description": "Which way the block turns."}}
    knobs = {"rows": Knob(2, 2, 4, "grid rows"), "cols": Knob(4, 2, 5, "grid columns"),
             "colours": Knob(3, 2, 4, "tile colours (as even a share of the tiles as can be)")}
    groups = {"easy": {"rows": 3, "cols": 3, "colours": 3, "min_optimum": 4, "max_optimum": 5, "slack": 1},
              "medium": {"rows": 2, "cols": 4, "colours": 4, "min_optimum": 6, "max_optimum": 7, "slack": 1},
              "hard": {"rows": 2, "cols": 5, "colours": 3, "min_optimum": 8, "max_optimum": 9, "slack": 1}}
    greedy_about = "the turn that leaves the fewest tiles differing from the target, never back to a seen grid"

    def validate(self, p: Any) -> None:
        super().validate(p)
        if p.rows * p.cols > 10:
            raise ValueError("rows * cols must be at most 10 (the search covers every arrangement)")

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        n = p.rows * p.cols
        tiles = [COLOURS[i % p.colours] for i in range(n)]
        rng.shuffle(tiles)
        target = ["".join(tiles[r * p.cols:(r + 1) * p.cols]) for r in range(p.rows)]
        table = _table("".join(target), p.cols)
        pool = sorted(s for s, d in table.items() if p.min_optimum <= d <= p.max_optimum)
        for _ in range(20 if pool else 0):  # the table is the cost: try several starts on it
            start = rng.choice(pool)
            inst = {"grid": [start[r * p.cols:(r + 1) * p.cols] for r in range(p.rows)], "target": target}
            if not greedy_solves(self, inst, table[start] + p.slack):
                return inst
        return None

    def start(self, inst: dict[str, Any]) -> str:
        grid, target = tuple(str(r) for r in inst["grid"]), tuple(str(r) for r in inst["target"])
        if not 2 <= len(grid) <= 4 or len(grid) != len(target) or not 2 <= len(grid[0]) <= 5 or \
                any(len(r) != len(grid[0]) for r in grid + target) or \
                sorted("".join(grid)) != sorted("".join(target)) or set("".join(grid)) - set(COLOURS):
            raise ValueError("grid and target: rows of colour letters, the same tiles")
        return "".join(grid)

    def action(self, inst: dict[str, Any], args: dict[str, Any]) -> tuple[int, int, int]:
        rows, cols = len(inst["grid"]), len(inst["grid"][0])
        r, c = int(args["row"]), int(args["col"])
        if not (1 <= r < rows and 1 <= c < cols):
            raise MoveError("out_of_bounds", f"a block's top-left tile is in rows 1-{rows - 1} and columns "
                                             f"1-{cols - 1}, not ({r}, {c})")
        return r, c, 1 if args["direction"] == "clockwise" else -1

    def args(self, action: tuple[int, int, int]) -> dict[str, Any]:
        return {"row": action[0], "col": action[1], "direction": "clockwise" if action[2] > 0 else "anticlockwise"}

    def legal(self, inst: dict[str, Any], state: str) -> list[tuple[int, int, int]]:
        rows, cols = len(inst["grid"]), len(inst["grid"][0])
        return [(r, c, d) for r in range(1, rows) for c in range(1, cols) for d in (1, -1)]

    def step(self, inst: dict[str, Any], state: str, action: tuple[int, int, int]) -> str:
        return "".join(_turns(len(inst["grid"]), len(inst["grid"][0]))[action](state))

    def solved(self, inst: dict[str, Any], state: str) -> bool:
        return state == "".join(inst["target"])

    def distances(self, inst: dict[str, Any]) -> dict[str, int]:
        return _table("".join(inst["target"]), len(inst["target"][0]))

    def closeness(self, inst: dict[str, Any], state: str) -> float:
        return sum(a != b for a, b in zip(state, "".join(inst["target"]), strict=True))

    def describe(self, inst: dict[str, Any], action: tuple[int, int, int]) -> str:
        return f"block at ({action[0]}, {action[1]}) turned {'clockwise' if action[2] > 0 else 'anticlockwise'}"

    def show(self, inst: dict[str, Any], state: str) -> str:
        cols = len(inst["grid"][0])
        head = "   " + " ".join(str(c + 1) for c in range(cols))
        now = [f"{r + 1:>2} " + " ".join(state[r * cols:(r + 1) * cols]) for r in range(len(inst["grid"]))]
        goal = [f"{r + 1:>2} " + " ".join(row) for r, row in enumerate(inst["target"])]
        return "\n".join(["now:", head, *now, "", "target:", head, *goal])

    def rules(self, inst: dict[str, Any]) -> str:
        rows, cols = len(inst["grid"]), len(inst["grid"][0])
        return (f"A {rows}x{cols} grid of coloured tiles (letters name the colours; rows and columns numbered from "
                f"1). Call `rotate(row, col, direction)` to turn the 2x2 block whose top-left tile is at (row, col) "
                f"a quarter turn, clockwise or anticlockwise: its four tiles move one place round the block "
                f"(clockwise: top-left to top-right, top-right to bottom-right, bottom-right to bottom-left, "
                f"bottom-left to top-left). Blocks overlap; row is 1-{rows - 1}, col 1-{cols - 1}. The goal is the "
                f"grid matching the target pattern tile for tile.")

    def refused_args(self, inst: dict[str, Any], state: str) -> dict[str, Any] | None:
        return {"row": len(inst["grid"]), "col": 1, "direction": "clockwise"}


@functools.lru_cache(maxsize=16)
def _turns(rows: int, cols: int) -> dict[tuple[int, int, int], itemgetter]:
    """For each turn (row, col, +1 clockwise / -1 anticlockwise), the tiles of the flat grid (row by row) in their
    new places: new[i] = old[perm[i]]."""
    out = {}
    for r in range(rows - 1):
        for c in range(cols - 1):
            ring = [r * cols + c, r * cols + c + 1, (r + 1) * cols + c + 1, (r + 1) * cols + c]  # clockwise
            for d in (1, -1):
                perm = list(range(rows * cols))
                for i, cell in enumerate(ring):
                    perm[cell] = ring[(i - d) % 4]
                out[(r + 1, c + 1, d)] = itemgetter(*perm)
    return out


@functools.lru_cache(maxsize=64)
def _table(target: str, cols: int) -> dict[str, int]:
    turns = list(_turns(len(target) // cols, cols).values())
    return bfs_distances([target], lambda s: ["".join(t(s)) for t in turns])


PUZZLE = Rotation
