"""Pegs on a line: red and blue pegs and a few holes in a row of cells; a peg slides into the hole next to it or
jumps over one neighbouring peg (either colour) into the hole right behind it; the goal is the target row the
prompt shows. Moves are reversible, so the optimum comes from breadth-first search over every arrangement from the
target (one table per target, kept for its replays); the start is drawn among the arrangements at the group's
distances."""
from __future__ import annotations

import functools
import random
from typing import Any

from ..core import Knob, MoveError, Puzzle, bfs_distances

HOLE = "."


class JumpLine(Puzzle):
    name = "jump_line"
    title = "Pegs on a line: slide and jump to a target row"
    tool = "move"
    tool_about = "Move the peg in cell `cell` to the hole in cell `to`: one cell along (a slide) or two cells " \
                 "along over the peg between (a jump). Returns the row after the move."
    parameters = {"cell": {"type": "integer", "description": "The cell of the peg to move, numbered from 1."},
                  "to": {"type": "integer", "description": "The empty cell it moves to (1 or 2 cells away)."}}
    knobs = {"red": Knob(4, 1, 6, "red pegs (R)"), "blue": Knob(4, 1, 6, "blue pegs (B)"),
             "holes": Knob(2, 1, 4, "empty cells")}
    groups = {"easy": {"red": 3, "blue": 3, "holes": 2, "min_optimum": 5, "max_optimum": 6, "slack": 1},
              "medium": {"red": 3, "blue": 3, "holes": 3, "min_optimum": 7, "max_optimum": 8, "slack": 1},
              "hard": {"red": 4, "blue": 4, "holes": 2, "min_optimum": 9, "max_optimum": 11, "slack": 1}}
    greedy_about = "the move that leaves the fewest cells differing from the target row, never back to a seen row"

    def validate(self, p: Any) -> None:
        super().validate(p)
        if p.red + p.blue + p.holes > 12:
            raise ValueError("red + blue + holes must be at most 12 cells (the search covers every arrangement)")

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        cells = ["R"] * p.red + ["B"] * p.blue + [HOLE] * p.holes
        rng.shuffle(cells)
        target = "".join(cells)
        pool = sorted(s for s, d in _table(target).items() if p.min_optimum <= d <= p.max_optimum)
        if not pool:
            return None
        return {"row": rng.choice(pool), "target": target}

    def start(self, inst: dict[str, Any]) -> str:
        row, target = str(inst["row"]), str(inst["target"])
        if sorted(row) != sorted(target) or set(row) - {"R", "B", HOLE} or not 2 <= len(row) <= 12:
            raise ValueError("row and target: the same pegs (R, B) and holes (.), at most 12 cells")
        return row

    def action(self, inst: dict[str, Any], args: dict[str, Any]) -> tuple[int, int]:
        n, a, b = len(inst["row"]), int(args["cell"]), int(args["to"])
        if not (1 <= a <= n and 1 <= b <= n):
            raise MoveError("out_of_bounds", f"cells are numbered 1-{n}")
        return a, b

    def args(self, action: tuple[int, int]) -> dict[str, Any]:
        return {"cell": action[0], "to": action[1]}

    def legal(self, inst: dict[str, Any], state: str) -> list[tuple[int, int]]:
        return [(a + 1, b + 1) for a, b, _ in _moves(state)]

    def step(self, inst: dict[str, Any], state: str, action: tuple[int, int]) -> str:
        a, b = action[0] - 1, action[1] - 1
        if state[a] == HOLE:
            raise MoveError("no_peg", f"cell {a + 1} is empty: there is no peg to move")
        if state[b] != HOLE:
            raise MoveError("not_empty", f"cell {b + 1} holds a peg: a peg moves only into a hole")
        if abs(a - b) not in (1, 2):
            raise MoveError("too_far", f"cell {b + 1} is {abs(a - b)} cells from cell {a + 1}: a peg slides one "
                                       f"cell or jumps two")
        if abs(a - b) == 2 and state[(a + b) // 2] == HOLE:
            raise MoveError("nothing_to_jump", f"cell {(a + b) // 2 + 1} is empty: a jump goes over a peg")
        return _swap(state, a, b)

    def solved(self, inst: dict[str, Any], state: str) -> bool:
        return state == inst["target"]

    def distances(self, inst: dict[str, Any]) -> dict[str, int]:
        return _table(str(inst["target"]))

    def closeness(self, inst: dict[str, Any], state: str) -> float:
        return sum(a != b for a, b in zip(state, inst["target"], strict=True))

    def describe(self, inst: dict[str, Any], action: tuple[int, int]) -> str:
        return f"peg in cell {action[0]} to cell {action[1]}"

    def show(self, inst: dict[str, Any], state: str) -> str:
        n = len(state)
        return ("cell:   " + " ".join(f"{i + 1:>2}" for i in range(n)) + "\nnow:    " +
                " ".join(f"{c:>2}" for c in state) + "\ntarget: " + " ".join(f"{c:>2}" for c in inst["target"]))

    def rules(self, inst: dict[str, Any]) -> str:
        n = len(inst["row"])
        return (f"A row of {n} cells holds red pegs (R), blue pegs (B) and holes (.). Call `move(cell, to)` to move "
                f"the peg in cell `cell` into the hole in cell `to`: either the next cell (a slide) or two cells "
                f"along, jumping over the peg in between (of either colour; the jumped peg stays). Pegs move left "
                f"or right. The goal is the target row shown under the current one.")

    def refused_args(self, inst: dict[str, Any], state: str) -> dict[str, Any] | None:
        hole = state.index(HOLE)
        return {"cell": hole + 1, "to": hole + 1}


def _swap(state: str, a: int, b: int) -> str:
    cells = list(state)
    cells[a], cells[b] = cells[b], cells[a]
    return "".join(cells)


def _moves(state: str) -> list[tuple[int, int, str]]:
    out = []
    for a, c in enumerate(state):
        if c == HOLE:
            continue
        for b in (a - 2, a - 1, a + 1, a + 2):
            if 0 <= b < len(state) and state[b] == HOLE and (abs(a - b) == 1 or state[(a + b) // 2] != HOLE):
                out.append((a, b, _swap(state, a, b)))
    return out


@functools.lru_cache(maxsize=128)
def _table(target: str) -> dict[str, int]:
    return bfs_distances([target], lambda s: [n for _, _, n in _moves(s)])


PUZZLE = JumpLine
