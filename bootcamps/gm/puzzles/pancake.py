"""Pancake sorting: flip the top k pancakes of a stack until they lie smallest on top, largest at the bottom. The
optimum by A* on the gap count (neighbours in the stack, the plate below the largest included, that are not
consecutive sizes: one flip changes at most one such pair, so it never overestimates)."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, MoveError, Puzzle


class Pancake(Puzzle):
    name = "pancake"
    title = "Pancake sorting"
    tool = "flip"
    tool_about = "Put the spatula under the top `count` pancakes and flip them over (their order reverses). " \
                 "Returns the stack after the flip."
    parameters = {"count": {"type": "integer", "description": "How many pancakes from the top to flip (2 or more)."}}
    knobs = {"pancakes": Knob(8, 4, 12, "pancakes in the stack")}
    groups = {"easy": {"pancakes": 9, "min_optimum": 7, "max_optimum": 8, "slack": 1},
              "medium": {"pancakes": 10, "min_optimum": 9, "max_optimum": 10, "slack": 1},
              "hard": {"pancakes": 12, "min_optimum": 11, "max_optimum": 12, "slack": 1}}
    greedy_about = "the flip that leaves the fewest gaps (neighbours of non-consecutive sizes), never back to a " \
                   "seen stack"

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        stack = list(range(1, p.pancakes + 1))
        rng.shuffle(stack)
        return {"stack": stack}

    def start(self, inst: dict[str, Any]) -> tuple[int, ...]:
        stack = tuple(int(v) for v in inst["stack"])
        if sorted(stack) != list(range(1, len(stack) + 1)):
            raise ValueError("stack is not the sizes 1..n")
        return stack

    def action(self, inst: dict[str, Any], args: dict[str, Any]) -> int:
        n, k = len(inst["stack"]), int(args["count"])
        if not 2 <= k <= n:
            raise MoveError("bad_count", f"count must be between 2 and {n} (the stack has {n} pancakes)")
        return k

    def args(self, action: int) -> dict[str, Any]:
        return {"count": action}

    def legal(self, inst: dict[str, Any], state: tuple[int, ...]) -> list[int]:
        return list(range(2, len(state) + 1))

    def step(self, inst: dict[str, Any], state: tuple[int, ...], action: int) -> tuple[int, ...]:
        return state[:action][::-1] + state[action:]

    def solved(self, inst: dict[str, Any], state: tuple[int, ...]) -> bool:
        return all(v == i + 1 for i, v in enumerate(state))

    def estimate(self, inst: dict[str, Any], state: tuple[int, ...]) -> float:
        below = state[1:] + (len(state) + 1,)
        return sum(abs(a - b) != 1 for a, b in zip(state, below, strict=True))

    def describe(self, inst: dict[str, Any], action: int) -> str:
        return f"flipped the top {action}"

    def show(self, inst: dict[str, Any], state: tuple[int, ...]) -> str:
        return "top -> " + " ".join(map(str, state)) + " <- bottom"

    def rules(self, inst: dict[str, Any]) -> str:
        n = len(inst["stack"])
        return (f"Pancake sorting: a stack of {n} pancakes of sizes 1 to {n}, listed from the top. Call "
                f"`flip(count)` to flip the top `count` pancakes over as one block (2 <= count <= {n}): their order "
                f"reverses and the rest stay. The goal is the stack sorted, smallest on top: 1 2 ... {n}.")

    def refused_args(self, inst: dict[str, Any], state: tuple[int, ...]) -> dict[str, Any] | None:
        return {"count": 1}


PUZZLE = Pancake
