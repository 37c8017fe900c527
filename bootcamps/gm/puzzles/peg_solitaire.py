"""Peg solitaire on a small rectangular board: jump a peg over a neighbouring peg into the empty hole beyond (the
jumped peg is removed) until one peg is left. Every jump removes a peg, so a solution takes exactly pegs - 1
jumps; the puzzle is to avoid dead ends. Starts are made by jumping backwards from a single peg; a depth-first
search with memory decides which positions still solve, and the exact chance that random legal play solves a
start is computed the same way (the generator refuses starts where it exceeds `random_cap` percent)."""
from __future__ import annotations

import functools
import random
from typing import Any

from ..core import Knob, MoveError, Puzzle

DIRECTIONS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


class PegSolitaire(Puzzle):
    name = "peg_solitaire"
    title = "Peg solitaire"
    tool = "jump"
    tool_about = "Jump the peg at (row, col) over the neighbouring peg in `direction` into the empty hole beyond; " \
                 "the jumped peg is removed. Returns the board after the jump."
    parameters = {"row": {"type": "integer", "description": "Row of the jumping peg, from 1 at the top."},
                  "col": {"type": "integer", "description": "Column of the jumping peg, from 1 at the left."},
                  "direction": {"type": "string", "enum": list(DIRECTIONS), "description": "Which way to jump."}}
    knobs = {"rows": Knob(5, 3, 7, "board rows"), "cols": Knob(5, 3, 7, "board columns"),
             "random_cap": Knob(2, 0, 100, "refuse starts that random legal play solves more often (percent)")}
    groups = {"easy": {"rows": 6, "cols": 7, "random_cap": 2, "min_optimum": 6, "max_optimum": 7, "slack": 1},
              "medium": {"rows": 5, "cols": 6, "random_cap": 2, "min_optimum": 8, "max_optimum": 9, "slack": 1},
              "hard": {"rows": 5, "cols": 6, "random_cap": 2, "min_optimum": 10, "max_optimum": 12, "slack": 1}}
    greedy_about = "the jump that leaves the most jumps open next (mobility), never back to a seen board"

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        rows, cols = p.rows, p.cols
        pegs = {(rng.randrange(rows), rng.randrange(cols))}
        target = rng.randint(p.min_optimum, p.max_optimum)
        for _ in range(target):
            options = []
            for (r, c) in sorted(pegs):
                for dr, dc in DIRECTIONS.values():
                    b, a = (r - dr, c - dc), (r - 2 * dr, c - 2 * dc)
                    if 0 <= a[0] < rows and 0 <= a[1] < cols and a not in pegs and b not in pegs:
                        options.append(((r, c), b, a))
            if not options:
                return None
            c_, b, a = rng.choice(options)
            pegs = (pegs - {c_}) | {a, b}
        board = ["".join("o" if (r, c) in pegs else "." for c in range(cols)) for r in range(rows)]
        return {"board": board}

    def accept(self, inst: dict[str, Any], p: Any) -> bool:
        return _chance(_shape(inst), self.start(inst)) * 100 <= p.random_cap

    def start(self, inst: dict[str, Any]) -> int:
        rows, cols = _shape(inst)
        board = inst["board"]
        if not (1 <= rows <= 8 and 1 <= cols <= 8) or any(len(r) != cols or set(r) - set("o.") for r in board):
            raise ValueError("board: rows of o (peg) and . (hole)")
        return sum(1 << (r * cols + c) for r in range(rows) for c in range(cols) if board[r][c] == "o")

    def action(self, inst: dict[str, Any], args: dict[str, Any]) -> tuple[int, int, str]:
        rows, cols = _shape(inst)
        r, c = int(args["row"]), int(args["col"])
        if not (1 <= r <= rows and 1 <= c <= cols):
            raise MoveError("out_of_bounds", f"({r}, {c}) is off the board: rows 1-{rows}, columns 1-{cols}")
        return r, c, str(args["direction"])

    def args(self, action: tuple[int, int, str]) -> dict[str, Any]:
        return {"row": action[0], "col": action[1], "direction": action[2]}

    def legal(self, inst: dict[str, Any], state: int) -> list[tuple[int, int, str]]:
        return _jumps(_shape(inst), state)

    def step(self, inst: dict[str, Any], state: int, action: tuple[int, int, str]) -> int:
        shape = _shape(inst)
        r, c, d = action
        move = _jump(shape, state, r - 1, c - 1, d)
        if isinstance(move, str):
            raise MoveError("illegal_jump", move)
        return move

    def solved(self, inst: dict[str, Any], state: int) -> bool:
        return bin(state).count("1") == 1

    def optimal_path(self, inst: dict[str, Any], state: int) -> tuple[tuple[int, int, str], ...] | None:
        shape = _shape(inst)
        out = []
        while bin(state).count("1") > 1:
            nxt = next(((a, s) for a in _jumps(shape, state) if _solvable(shape, s := _jump(shape, state, a[0] - 1,
                                                                                              a[1] - 1, a[2]))),
                       None)
            if nxt is None:
                return None
            out.append(nxt[0])
            state = nxt[1]
        return tuple(out)

    def closeness(self, inst: dict[str, Any], state: int) -> float:
        return -len(_jumps(_shape(inst), state))

    def describe(self, inst: dict[str, Any], action: tuple[int, int, str]) -> str:
        return f"({action[0]}, {action[1]}) jumped {action[2]}"

    def show(self, inst: dict[str, Any], state: int) -> str:
        rows, cols = _shape(inst)
        head = "   " + " ".join(str(c + 1) for c in range(cols))
        lines = [f"{r + 1:>2} " + " ".join("o" if state >> (r * cols + c) & 1 else "." for c in range(cols))
                 for r in range(rows)]
        return "\n".join([head, *lines])

    def rules(self, inst: dict[str, Any]) -> str:
        rows, cols = _shape(inst)
        return (f"Peg solitaire on a {rows}x{cols} board: `o` is a peg, `.` an empty hole (rows and columns "
                f"numbered from 1). Call `jump(row, col, direction)` to jump the peg at (row, col) over the peg "
                f"next to it in that direction (up, down, left, right) into the empty hole right behind it; the "
                f"jumped peg is removed. No diagonal jumps. The goal is a single peg left, anywhere.")

    def refused_args(self, inst: dict[str, Any], state: int) -> dict[str, Any] | None:
        rows, cols = _shape(inst)
        for r in range(rows):
            for c in range(cols):
                if not state >> (r * cols + c) & 1:
                    return {"row": r + 1, "col": c + 1, "direction": "up"}
        return None


def _shape(inst: dict[str, Any]) -> tuple[int, int]:
    return len(inst["board"]), len(inst["board"][0])


def _jump(shape: tuple[int, int], state: int, r: int, c: int, d: str) -> int | str:
    rows, cols = shape
    dr, dc = DIRECTIONS[d]
    br, bc, ar, ac = r + dr, c + dc, r + 2 * dr, c + 2 * dc
    if not state >> (r * cols + c) & 1:
        return f"there is no peg at ({r + 1}, {c + 1})"
    if not (0 <= ar < rows and 0 <= ac < cols):
        return f"a jump {d} from ({r + 1}, {c + 1}) leaves the board"
    if not state >> (br * cols + bc) & 1:
        return f"there is no peg at ({br + 1}, {bc + 1}) to jump over"
    if state >> (ar * cols + ac) & 1:
        return f"the hole at ({ar + 1}, {ac + 1}) is not empty"
    return state & ~(1 << (r * cols + c)) & ~(1 << (br * cols + bc)) | (1 << (ar * cols + ac))


@functools.lru_cache(maxsize=16)
def _all_jumps(shape: tuple[int, int]) -> list[tuple[tuple[int, int, str], int, int, int]]:
    """Every jump on the board, (row, col, direction) from 1 with its three cells' bits: from, over, to."""
    rows, cols = shape
    out = []
    for r in range(rows):
        for c in range(cols):
            for d, (dr, dc) in DIRECTIONS.items():
                ar, ac = r + 2 * dr, c + 2 * dc
                if 0 <= ar < rows and 0 <= ac < cols:
                    out.append(((r + 1, c + 1, d), 1 << (r * cols + c), 1 << ((r + dr) * cols + c + dc),
                                1 << (ar * cols + ac)))
    return out


@functools.lru_cache(maxsize=200_000)
def _jumps(shape: tuple[int, int], state: int) -> list[tuple[int, int, str]]:
    return [move for move, f, o, t in _all_jumps(shape) if state & f and state & o and not state & t]


def _after(shape: tuple[int, int], state: int) -> list[int]:
    """The board after each legal jump, in `_jumps`'s order."""
    return [state ^ f ^ o ^ t for _, f, o, t in _all_jumps(shape) if state & f and state & o and not state & t]


@functools.lru_cache(maxsize=500_000)
def _solvable(shape: tuple[int, int], state: int) -> bool:
    if bin(state).count("1") == 1:
        return True
    return any(_solvable(shape, s) for s in _after(shape, state))


@functools.lru_cache(maxsize=500_000)
def _chance(shape: tuple[int, int], state: int) -> float:
    """The probability that uniform random legal jumps from `state` end with one peg."""
    if bin(state).count("1") == 1:
        return 1.0
    boards = _after(shape, state)
    if not boards:
        return 0.0
    return sum(_chance(shape, s) for s in boards) / len(boards)


PUZZLE = PegSolitaire
