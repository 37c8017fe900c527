"""Flood-it: the area of the top-left cell takes the colour you choose and swallows the neighbouring cells of that
colour; make the whole board one colour. The optimum by A* on the number of colours still outside the area (one
fill removes at most one colour from outside, so it never overestimates)."""
from __future__ import annotations

import functools
import random
from typing import Any

from ..core import Knob, MoveError, Puzzle

LETTERS = "ABCDEF"


class FloodIt(Puzzle):
    name = "flood_it"
    title = "Flood-it"
    tool = "fill"
    tool_about = "Colour your area (the cells joined to the top-left cell) with `colour`; the neighbouring cells " \
                 "of that colour join it. Returns the board after the fill."
    parameters = {"colour": {"type": "string", "enum": list(LETTERS), "description": "The colour letter to fill "
                                                                                    "with."}}
    knobs = {"size": Knob(6, 4, 8, "the board is size x size"), "colours": Knob(4, 3, 6, "colours in play")}
    groups = {"easy": {"size": 5, "colours": 4, "min_optimum": 6, "max_optimum": 7, "slack": 1},
              "medium": {"size": 6, "colours": 5, "min_optimum": 8, "max_optimum": 9, "slack": 1},
              "hard": {"size": 7, "colours": 5, "min_optimum": 10, "max_optimum": 12, "slack": 1}}
    solver_limit = 60_000
    greedy_about = "the fill that makes the area largest, never back to a seen board"

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        palette = LETTERS[:p.colours]
        return {"grid": ["".join(rng.choice(palette) for _ in range(p.size)) for _ in range(p.size)],
                "colours": palette}

    def start(self, inst: dict[str, Any]) -> tuple[int, str]:
        grid, palette = inst["grid"], inst["colours"]
        n = len(grid)
        if not 2 <= n <= 10 or any(len(r) != n or set(r) - set(palette) for r in grid) or set(palette) - set(LETTERS):
            raise ValueError("grid: square rows of the palette's letters")
        first = grid[0][0]
        return _grow(_key(grid), 1, first), first

    def action(self, inst: dict[str, Any], args: dict[str, Any]) -> str:
        colour = str(args["colour"])
        if colour not in inst["colours"]:
            raise MoveError("no_such_colour", f"{colour} is not in play: the colours are {', '.join(inst['colours'])}")
        return colour

    def args(self, action: str) -> dict[str, Any]:
        return {"colour": action}

    def legal(self, inst: dict[str, Any], state: tuple[int, str]) -> list[str]:
        return [c for c in inst["colours"] if c != state[1]]

    def step(self, inst: dict[str, Any], state: tuple[int, str], action: str) -> tuple[int, str]:
        if action == state[1]:
            raise MoveError("same_colour", f"your area is already {action}: that fill changes nothing")
        return _grow(_key(inst["grid"]), state[0], action), action

    def solved(self, inst: dict[str, Any], state: tuple[int, str]) -> bool:
        n = len(inst["grid"])
        return state[0] == (1 << (n * n)) - 1

    def estimate(self, inst: dict[str, Any], state: tuple[int, str]) -> float:
        masks = _colour_masks(_key(inst["grid"]))
        return sum(1 for m in masks.values() if m & ~state[0])

    def closeness(self, inst: dict[str, Any], state: tuple[int, str]) -> float:
        return -bin(state[0]).count("1")

    def describe(self, inst: dict[str, Any], action: str) -> str:
        return f"filled with {action}"

    def show(self, inst: dict[str, Any], state: tuple[int, str]) -> str:
        grid, n = inst["grid"], len(inst["grid"])
        return "\n".join(" ".join(state[1] if state[0] >> (r * n + c) & 1 else grid[r][c] for c in range(n))
                         for r in range(n))

    def rules(self, inst: dict[str, Any]) -> str:
        n, palette = len(inst["grid"]), inst["colours"]
        return (f"Flood-it on a {n}x{n} board of colours {', '.join(palette)}. Your area is the top-left cell and "
                f"every cell joined to it through cells of the same colour (up, down, left, right). Call "
                f"`fill(colour)` to give your whole area that colour: the cells of that colour next to it then join "
                f"it. Filling with the area's own colour is refused. The goal is the whole board one colour.")

    def refused_args(self, inst: dict[str, Any], state: tuple[int, str]) -> dict[str, Any] | None:
        return {"colour": state[1]}


def _key(grid: list[str]) -> tuple[str, ...]:
    return tuple(grid)


@functools.lru_cache(maxsize=4096)
def _colour_masks(grid: tuple[str, ...]) -> dict[str, int]:
    n, out = len(grid), {}
    for r in range(n):
        for c in range(n):
            out[grid[r][c]] = out.get(grid[r][c], 0) | 1 << (r * n + c)
    return out


@functools.lru_cache(maxsize=64)
def _edges(n: int) -> tuple[int, int]:
    left = sum(1 << (r * n) for r in range(n))
    return left, left << (n - 1)  # first and last column


def _near(mask: int, n: int) -> int:
    left, right = _edges(n)
    full = (1 << (n * n)) - 1
    return ((mask << n) | (mask >> n) | ((mask & ~right) << 1) | ((mask & ~left) >> 1)) & full


def _grow(grid: tuple[str, ...], area: int, colour: str) -> int:
    n, same = len(grid), _colour_masks(grid).get(colour, 0)
    while True:
        more = _near(area, n) & same & ~area
        if not more:
            return area
        area |= more


PUZZLE = FloodIt
