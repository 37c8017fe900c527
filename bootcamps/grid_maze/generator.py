"""Maze tasks: a picture of a grid maze with a start S and a goal G; the answer is a sequence of moves."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bc_common.bootcamp import InstructionGenerator
from bc_common.images import text_part

from .maze import carve, distances, encode
from .render import render_maze


@dataclass
class MazeConfig:
    rows: int = 7
    cols: int = 7
    loops: float = 0.1  # extra openings per cell: more than one shortest path
    min_distance: int = 6  # the goal is at least this many moves from the start
    look: bool = False  # offer the look(r, c) tool (hard levels)

    def validate(self) -> None:
        if not (2 <= self.rows <= 30 and 2 <= self.cols <= 30):
            raise ValueError("rows and cols must be between 2 and 30")
        if not 0 <= self.loops <= 0.5:
            raise ValueError("loops must be between 0 and 0.5")
        if not 1 <= self.min_distance <= self.rows * self.cols // 2:
            raise ValueError("min_distance must be between 1 and half the cells")


class GridMazeInstructionGenerator(InstructionGenerator):
    """Identity: {rows, cols, open (hex masks per row), start, goal, shortest, path, look}; `path` is one shortest
    move string for the reference policy; the verifier accepts any."""

    Config = MazeConfig

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        open_ = carve(self.rows, self.cols, rng, self.loops)
        cells = [(r, c) for r in range(self.rows) for c in range(self.cols)]
        while True:
            start = rng.choice(cells)
            far = [(cell, d) for cell, d in distances(open_, start).items() if d[0] >= self.min_distance]
            if far:
                break
        goal, (shortest, path) = rng.choice(sorted(far))
        return {"rows": self.rows, "cols": self.cols, "open": encode(open_), "start": list(start),
                "goal": list(goal), "shortest": shortest, "path": path, "look": self.look}

    def prompt_func(self, identity: dict[str, Any]) -> list[dict[str, Any]]:
        rows, cols = identity["rows"], identity["cols"]
        intro = (f"The picture shows a maze of {rows} rows and {cols} columns (row 0 at the top, column 0 at the "
                 "left; numbers along the edges). Black lines are walls. S (green) is the start, G (red) the goal.")
        tool = (" The `look(row, col)` tool tells which sides of the cells around a cell are open."
                if identity.get("look") else "")
        question = ("Give moves from S to G that never cross a wall or leave the grid: U (up), D (down), L (left), "
                    "R (right), as <answer>R R D L</answer>. A shortest path scores 1.0, a longer one less, one that "
                    f"crosses a wall or misses G scores 0.{tool}")
        return [text_part(intro), render_maze(identity), text_part(question)]
