"""The Tower of Hanoi with four pegs (Reve's puzzle), from a random legal position: gather every disc on the target
peg, one top disc at a time, never a larger disc on a smaller one. The optimum by breadth-first search over all
4^n positions from the goal (moves are reversible), one table per (discs, target) and process."""
from __future__ import annotations

import functools
import random
from typing import Any

from ..core import Knob, MoveError, Puzzle, bfs_distances

PEGS = 4


class Hanoi(Puzzle):
    name = "hanoi"
    title = "Tower of Hanoi with four pegs from a random position"
    tool = "move"
    tool_about = "Move the top disc of one peg onto another peg (never onto a smaller disc). Returns the pegs " \
                 "after the move."
    parameters = {"from_peg": {"type": "integer", "description": "The peg to take the top disc from (1-4)."},
                  "to_peg": {"type": "integer", "description": "The peg to put it on (1-4)."}}
    knobs = {"discs": Knob(6, 3, 8, "discs, sizes 1 (smallest) to discs")}
    groups = {"easy": {"discs": 5, "min_optimum": 8, "max_optimum": 10, "slack": 2},
              "medium": {"discs": 6, "min_optimum": 11, "max_optimum": 13, "slack": 2},
              "hard": {"discs": 7, "min_optimum": 14, "max_optimum": 17, "slack": 2}}
    # positions at those distances, times 4 targets (the tables' layers; test_gm checks them), before the greedy filter
    space_size = {"easy": 4 * (126 + 204 + 282), "medium": 4 * (318 + 462 + 804),
                  "hard": 4 * (1032 + 936 + 1044 + 1740)}
    greedy_about = "the move that leaves the least disc size off the target peg, never back to a seen position"

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        target = rng.randint(1, PEGS)
        pool = _layer(p.discs, target, p.min_optimum, p.max_optimum)
        if not pool:
            return None
        return {"target": target, "pegs": [p_ + 1 for p_ in rng.choice(pool)]}

    def start(self, inst: dict[str, Any]) -> tuple[int, ...]:
        pegs = tuple(int(v) - 1 for v in inst["pegs"])
        if not 1 <= len(pegs) <= 10 or not all(0 <= v < PEGS for v in pegs) or not 1 <= int(inst["target"]) <= PEGS:
            raise ValueError("pegs: one peg 1-4 per disc; target 1-4")
        return pegs

    def action(self, inst: dict[str, Any], args: dict[str, Any]) -> tuple[int, int]:
        a, b = int(args["from_peg"]), int(args["to_peg"])
        if not (1 <= a <= PEGS and 1 <= b <= PEGS):
            raise MoveError("no_such_peg", f"pegs are numbered 1-{PEGS}")
        if a == b:
            raise MoveError("same_peg", "from_peg and to_peg are the same peg")
        return a, b

    def args(self, action: tuple[int, int]) -> dict[str, Any]:
        return {"from_peg": action[0], "to_peg": action[1]}

    def legal(self, inst: dict[str, Any], state: tuple[int, ...]) -> list[tuple[int, int]]:
        tops = _tops(state)
        return [(a + 1, b + 1) for a in range(PEGS) for b in range(PEGS)
                if a != b and tops[a] is not None and (tops[b] is None or tops[b] > tops[a])]

    def step(self, inst: dict[str, Any], state: tuple[int, ...], action: tuple[int, int]) -> tuple[int, ...]:
        a, b = action[0] - 1, action[1] - 1
        tops = _tops(state)
        if tops[a] is None:
            raise MoveError("empty_peg", f"peg {a + 1} has no disc")
        if tops[b] is not None and tops[b] < tops[a]:
            raise MoveError("larger_on_smaller", f"disc {tops[a] + 1} cannot go on the smaller disc {tops[b] + 1}")
        out = list(state)
        out[tops[a]] = b
        return tuple(out)

    def solved(self, inst: dict[str, Any], state: tuple[int, ...]) -> bool:
        return all(v == int(inst["target"]) - 1 for v in state)

    def distances(self, inst: dict[str, Any]) -> dict[tuple[int, ...], int]:
        return _table(len(inst["pegs"]), int(inst["target"]))

    def closeness(self, inst: dict[str, Any], state: tuple[int, ...]) -> float:
        t = int(inst["target"]) - 1
        return sum(i + 1 for i, v in enumerate(state) if v != t)

    def describe(self, inst: dict[str, Any], action: tuple[int, int]) -> str:
        return f"peg {action[0]} -> peg {action[1]}"

    def show(self, inst: dict[str, Any], state: tuple[int, ...]) -> str:
        lines = []
        for peg in range(PEGS):
            discs = [str(i + 1) for i in range(len(state) - 1, -1, -1) if state[i] == peg]
            lines.append(f"peg {peg + 1}: " + (" ".join(discs) if discs else "(empty)"))
        return "\n".join(lines) + "\n(each peg lists its discs from the bottom up; 1 is the smallest)"

    def rules(self, inst: dict[str, Any]) -> str:
        n = len(inst["pegs"])
        return (f"The Tower of Hanoi with {PEGS} pegs and {n} discs of sizes 1 (smallest) to {n}, from a mixed-up "
                f"position. Call `move(from_peg, to_peg)` to move the top disc of one peg onto another; a disc may "
                f"never sit on a smaller one. The goal is all {n} discs on peg {inst['target']}.")

    def refused_args(self, inst: dict[str, Any], state: tuple[int, ...]) -> dict[str, Any] | None:
        return {"from_peg": 1, "to_peg": 1}


def _tops(state: tuple[int, ...]) -> list[int | None]:
    tops: list[int | None] = [None] * PEGS
    for disc in range(len(state) - 1, -1, -1):  # the smallest disc on a peg is its top
        tops[state[disc]] = disc
    return tops


@functools.lru_cache(maxsize=32)
def _table(discs: int, target: int) -> dict[tuple[int, ...], int]:
    def moves(state: tuple[int, ...]) -> list[tuple[int, ...]]:
        tops, out = _tops(state), []
        for a in range(PEGS):
            if tops[a] is None:
                continue
            for b in range(PEGS):
                if b != a and (tops[b] is None or tops[b] > tops[a]):
                    s = list(state)
                    s[tops[a]] = b
                    out.append(tuple(s))
        return out

    return bfs_distances([(target - 1,) * discs], moves)


@functools.lru_cache(maxsize=64)
def _layer(discs: int, target: int, low: int, high: int) -> list[tuple[int, ...]]:
    return sorted(s for s, d in _table(discs, target).items() if low <= d <= high)


PUZZLE = Hanoi
