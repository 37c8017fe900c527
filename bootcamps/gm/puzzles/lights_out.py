"""Lights out: pressing a light toggles it and its up to four neighbours; switch every light off. The fewest
presses come from light chasing: each choice of first-row presses forces the rest (press below every light still
on), so the optimum is the least over the 2^n first rows that leave the board dark."""
from __future__ import annotations

import functools
import random
from typing import Any

from ..core import Knob, MoveError, Puzzle


class LightsOut(Puzzle):
    name = "lights_out"
    title = "Lights out"
    tool = "press"
    tool_about = "Press the light at (row, col): it and its neighbours above, below, left and right toggle. " \
                 "Returns the board after the press."
    parameters = {"row": {"type": "integer", "description": "Row, from 1 at the top."},
                  "col": {"type": "integer", "description": "Column, from 1 at the left."}}
    knobs = {"size": Knob(5, 3, 6, "the board is size x size")}
    groups = {"easy": {"size": 5, "min_optimum": 6, "max_optimum": 7, "slack": 2},
              "medium": {"size": 5, "min_optimum": 8, "max_optimum": 9, "slack": 2},
              "hard": {"size": 6, "min_optimum": 10, "max_optimum": 12, "slack": 2}}
    greedy_about = "the press that leaves the fewest lights on, never back to a seen board"

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        n = p.size
        state = 0
        for cell in rng.sample(range(n * n), rng.randint(p.min_optimum, min(n * n, p.max_optimum + 3))):
            state ^= _masks(n)[cell]
        return {"size": n, "lights": ["".join("1" if state >> (r * n + c) & 1 else "0" for c in range(n))
                                      for r in range(n)]}

    def start(self, inst: dict[str, Any]) -> int:
        n, rows = int(inst["size"]), inst["lights"]
        if not 1 <= n <= 8 or len(rows) != n or any(len(r) != n or set(r) - {"0", "1"} for r in rows):
            raise ValueError("lights must be size strings of size 0/1 characters")
        return sum(1 << (r * n + c) for r in range(n) for c in range(n) if rows[r][c] == "1")

    def action(self, inst: dict[str, Any], args: dict[str, Any]) -> int:
        n, r, c = inst["size"], int(args["row"]), int(args["col"])
        if not (1 <= r <= n and 1 <= c <= n):
            raise MoveError("out_of_bounds", f"({r}, {c}) is off the board: rows and columns are 1-{n}")
        return r, c

    def args(self, action: tuple[int, int]) -> dict[str, Any]:
        return {"row": action[0], "col": action[1]}

    def legal(self, inst: dict[str, Any], state: int) -> list[tuple[int, int]]:
        n = inst["size"]
        return [(r, c) for r in range(1, n + 1) for c in range(1, n + 1)]

    def step(self, inst: dict[str, Any], state: int, action: tuple[int, int]) -> int:
        n = inst["size"]
        return state ^ _masks(n)[(action[0] - 1) * n + action[1] - 1]

    def solved(self, inst: dict[str, Any], state: int) -> bool:
        return state == 0

    def optimal_path(self, inst: dict[str, Any], state: int) -> tuple[tuple[int, int], ...] | None:
        n = inst["size"]
        found = _chase(n, state)
        return None if found is None else tuple((cell // n + 1, cell % n + 1) for cell in found)

    def distance(self, inst: dict[str, Any], state: int) -> int | None:
        found = _chase(inst["size"], state)
        return None if found is None else len(found)

    def closeness(self, inst: dict[str, Any], state: int) -> float:
        return bin(state).count("1")

    def show(self, inst: dict[str, Any], state: int) -> str:
        n = inst["size"]
        head = "   " + " ".join(str(c + 1) for c in range(n))
        rows = [f"{r + 1:>2} " + " ".join("#" if state >> (r * n + c) & 1 else "." for c in range(n))
                for r in range(n)]
        return "\n".join([head, *rows])

    def rules(self, inst: dict[str, Any]) -> str:
        n = inst["size"]
        return (f"Lights out on a {n}x{n} board: `#` is a light that is on, `.` one that is off. Call "
                f"`press(row, col)` (rows and columns numbered from 1) to press a light: it and its neighbours "
                f"directly above, below, left and right switch (on to off, off to on). The goal is every light "
                f"off.")


def _masks_for(n: int) -> list[int]:
    out = []
    for cell in range(n * n):
        r, c = divmod(cell, n)
        m = 0
        for rr, cc in ((r, c), (r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= rr < n and 0 <= cc < n:
                m |= 1 << (rr * n + cc)
        out.append(m)
    return out


_masks = functools.cache(_masks_for)


@functools.lru_cache(maxsize=65536)
def _chase(n: int, state: int) -> tuple[int, ...] | None:
    """The fewest presses that switch `state` off, in cell order (None when no presses do)."""
    masks, best = _masks(n), None
    for first in range(1 << n):
        s, presses = state, []
        for c in range(n):
            if first >> c & 1:
                s ^= masks[c]
                presses.append(c)
        for r in range(1, n):
            for c in range(n):
                if s >> ((r - 1) * n + c) & 1:
                    s ^= masks[r * n + c]
                    presses.append(r * n + c)
        if s == 0 and (best is None or len(presses) < len(best)):
            best = sorted(presses)
    return None if best is None else tuple(best)


PUZZLE = LightsOut
