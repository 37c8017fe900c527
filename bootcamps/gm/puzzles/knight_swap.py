"""Knight shuffling (after Guarini's problem): white and black knights on a small board move by knight's moves to
empty squares until every white knight stands on a square marked for white and every black one on a square marked
for black. The optimum by breadth-first search over every placement from the goal (knight moves are reversible),
one table per goal marking; the summed knight's-move distances to the nearest goal squares (a lower bound) refuse
far starts before the table is built."""
from __future__ import annotations

import functools
import random
from typing import Any

from ..core import Knob, MoveError, Puzzle

JUMPS = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))


class KnightSwap(Puzzle):
    name = "knight_swap"
    title = "Knight shuffling"
    tool = "hop"
    tool_about = "Move the knight on (row, col) by a knight's move (two squares one way, one square across) to the " \
                 "empty square (to_row, to_col). Returns the board after the move."
    parameters = {"row": {"type": "integer", "description": "Row of the knight to move, from 1 at the top."},
                  "col": {"type": "integer", "description": "Its column, from 1 at the left."},
                  "to_row": {"type": "integer", "description": "Row of the empty square it lands on."},
                  "to_col": {"type": "integer", "description": "Column of that square."}}
    knobs = {"rows": Knob(4, 3, 5, "board rows"), "cols": Knob(4, 3, 5, "board columns"),
             "white": Knob(2, 1, 3, "white knights"), "black": Knob(2, 1, 3, "black knights")}
    groups = {"easy": {"rows": 3, "cols": 4, "white": 2, "black": 2, "min_optimum": 5, "max_optimum": 6, "slack": 2},
              "medium": {"rows": 3, "cols": 4, "white": 2, "black": 2, "min_optimum": 7, "max_optimum": 9,
                         "slack": 2},
              "hard": {"rows": 3, "cols": 4, "white": 2, "black": 2, "min_optimum": 10, "max_optimum": 14,
                       "slack": 2}}
    greedy_about = "the hop that leaves the knights fewest knight's moves from free goal squares of their colour, " \
                   "never back to a seen board"

    def validate(self, p: Any) -> None:
        super().validate(p)
        if 2 * (p.white + p.black) > p.rows * p.cols:
            raise ValueError("the knights and their goal squares need at most rows * cols / 2 knights")

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        cells = rng.sample(range(p.rows * p.cols), p.white + p.black)
        goals = rng.sample(range(p.rows * p.cols), p.white + p.black)
        marks = [["."] * p.cols for _ in range(p.rows)]
        pieces = [["."] * p.cols for _ in range(p.rows)]
        for k, cell in enumerate(cells):
            pieces[cell // p.cols][cell % p.cols] = "W" if k < p.white else "B"
        for k, cell in enumerate(goals):
            marks[cell // p.cols][cell % p.cols] = "w" if k < p.white else "b"
        return {"knights": ["".join(r) for r in pieces], "goals": ["".join(r) for r in marks]}

    def start(self, inst: dict[str, Any]) -> tuple[frozenset[int], frozenset[int]]:
        knights, goals = inst["knights"], inst["goals"]
        rows, cols = len(knights), len(knights[0])
        if not (2 <= rows <= 6 and 2 <= cols <= 6) or len(goals) != rows or \
                any(len(r) != cols or set(r) - set("WB.") for r in knights) or \
                any(len(r) != cols or set(r) - set("wb.") for r in goals):
            raise ValueError("knights: rows of W B .; goals: rows of w b .; the same shape")
        flat, marks = "".join(knights), "".join(goals)
        if flat.count("W") != marks.count("w") or flat.count("B") != marks.count("b"):
            raise ValueError("as many goal squares as knights of each colour")
        return _split(flat, "W", "B")

    def action(self, inst: dict[str, Any], args: dict[str, Any]) -> tuple[int, int, int, int]:
        rows, cols = len(inst["knights"]), len(inst["knights"][0])
        r, c, tr, tc = (int(args[k]) for k in ("row", "col", "to_row", "to_col"))
        if not all(1 <= a <= rows for a in (r, tr)) or not all(1 <= a <= cols for a in (c, tc)):
            raise MoveError("out_of_bounds", f"squares are rows 1-{rows}, columns 1-{cols}")
        return r, c, tr, tc

    def args(self, action: tuple[int, int, int, int]) -> dict[str, Any]:
        return dict(zip(("row", "col", "to_row", "to_col"), action, strict=True))

    def legal(self, inst: dict[str, Any], state: tuple[frozenset[int], frozenset[int]]) -> list[tuple]:
        rows, cols = len(inst["knights"]), len(inst["knights"][0])
        taken = state[0] | state[1]
        return [(a // cols + 1, a % cols + 1, b // cols + 1, b % cols + 1)
                for a in sorted(taken) for b in _hops(rows, cols)[a] if b not in taken]

    def step(self, inst: dict[str, Any], state: tuple[frozenset[int], frozenset[int]],
             action: tuple[int, int, int, int]) -> tuple[frozenset[int], frozenset[int]]:
        rows, cols = len(inst["knights"]), len(inst["knights"][0])
        a, b = (action[0] - 1) * cols + action[1] - 1, (action[2] - 1) * cols + action[3] - 1
        white, black = state
        if a not in white and a not in black:
            raise MoveError("no_knight", f"there is no knight on ({a // cols + 1}, {a % cols + 1})")
        if b not in _hops(rows, cols)[a]:
            raise MoveError("not_a_knight_move", "a knight moves two squares one way and one square across")
        if b in white or b in black:
            raise MoveError("occupied", f"({b // cols + 1}, {b % cols + 1}) is not empty")
        if a in white:
            return (white - {a}) | {b}, black
        return white, (black - {a}) | {b}

    def solved(self, inst: dict[str, Any], state: tuple[frozenset[int], frozenset[int]]) -> bool:
        return state == _goal(tuple(inst["goals"]))

    def distances(self, inst: dict[str, Any]) -> dict[tuple[frozenset[int], frozenset[int]], int]:
        return _table(tuple(inst["goals"]))

    def estimate(self, inst: dict[str, Any], state: tuple[frozenset[int], frozenset[int]]) -> float:
        rows, cols = len(inst["knights"]), len(inst["knights"][0])
        far = _far(rows, cols)
        gw, gb = _goal(tuple(inst["goals"]))
        return sum(min(far[a][g] for g in gw) for a in state[0]) + sum(min(far[a][g] for g in gb) for a in state[1])

    def describe(self, inst: dict[str, Any], action: tuple[int, int, int, int]) -> str:
        return f"({action[0]}, {action[1]}) -> ({action[2]}, {action[3]})"

    def show(self, inst: dict[str, Any], state: tuple[frozenset[int], frozenset[int]]) -> str:
        rows, cols = len(inst["knights"]), len(inst["knights"][0])
        marks = "".join(inst["goals"])
        head = "   " + " ".join(f"{c + 1:<2}" for c in range(cols))
        lines = []
        for r in range(rows):
            cells = []
            for c in range(cols):
                i = r * cols + c
                piece = "W" if i in state[0] else "B" if i in state[1] else "."
                cells.append(piece + marks[i])
            lines.append(f"{r + 1:>2} " + " ".join(cells))
        return "\n".join([head, *lines])

    def rules(self, inst: dict[str, Any]) -> str:
        rows, cols = len(inst["knights"]), len(inst["knights"][0])
        return (f"Knight shuffling on a {rows}x{cols} board (rows and columns numbered from 1). Each square shows "
                f"two characters: the piece on it (`W` a white knight, `B` a black knight, `.` empty) and its mark "
                f"(`w` a goal square for a white knight, `b` one for a black knight, `.` none). Call "
                f"`hop(row, col, to_row, to_col)` to move the knight on (row, col) by a knight's move (two squares "
                f"in one direction and one square across) to an empty square. The goal is every white knight on a "
                f"`w` square and every black knight on a `b` square.")

    def refused_args(self, inst: dict[str, Any], state: tuple[frozenset[int], frozenset[int]]) -> dict[str, Any]:
        return {"row": 1, "col": 1, "to_row": 1, "to_col": 1}


def _split(flat: str, white: str, black: str) -> tuple[frozenset[int], frozenset[int]]:
    return (frozenset(i for i, ch in enumerate(flat) if ch == white),
            frozenset(i for i, ch in enumerate(flat) if ch == black))


@functools.lru_cache(maxsize=4096)
def _goal(goals: tuple[str, ...]) -> tuple[frozenset[int], frozenset[int]]:
    return _split("".join(goals), "w", "b")


@functools.lru_cache(maxsize=16)
def _hops(rows: int, cols: int) -> list[list[int]]:
    return [[(r + dr) * cols + c + dc for dr, dc in JUMPS if 0 <= r + dr < rows and 0 <= c + dc < cols]
            for r, c in (divmod(i, cols) for i in range(rows * cols))]


@functools.lru_cache(maxsize=16)
def _far(rows: int, cols: int) -> list[list[int]]:
    """Knight's moves between every two squares on an empty board (a large number when unreachable)."""
    hops = _hops(rows, cols)
    out = []
    for s in range(rows * cols):
        d = {s: 0}
        frontier = [s]
        while frontier:
            nxt = []
            for u in frontier:
                for v in hops[u]:
                    if v not in d:
                        d[v] = d[u] + 1
                        nxt.append(v)
            frontier = nxt
        out.append([d.get(t, 99) for t in range(rows * cols)])
    return out


@functools.lru_cache(maxsize=4)
def _cells(n: int) -> list[tuple[int, ...]]:
    """For every bit mask of n squares, its squares."""
    return [tuple(i for i in range(n) if m >> i & 1) for m in range(1 << n)]


@functools.lru_cache(maxsize=256)
def _table(goals: tuple[str, ...]) -> dict[tuple[frozenset[int], frozenset[int]], int]:
    """Moves to the goal from every placement (breadth-first from the goal: knight moves are reversible), over the
    placements as bit masks of white and black squares, then keyed by their square sets."""
    rows, cols = len(goals), len(goals[0])
    hops, cells = _hops(rows, cols), _cells(rows * cols)
    gw, gb = _goal(goals)
    start = (sum(1 << i for i in gw), sum(1 << i for i in gb))
    dist = {start: 0}
    layer, depth = [start], 0
    while layer:
        depth += 1
        nxt = []
        for white, black in layer:
            taken = white | black
            for a in cells[white]:
                rest = white ^ (1 << a)
                for t in hops[a]:
                    if not taken >> t & 1 and (s := (rest | 1 << t, black)) not in dist:
                        dist[s] = depth
                        nxt.append(s)
            for a in cells[black]:
                rest = black ^ (1 << a)
                for t in hops[a]:
                    if not taken >> t & 1 and (s := (white, rest | 1 << t)) not in dist:
                        dist[s] = depth
                        nxt.append(s)
        layer = nxt
    sets = {m: frozenset(cells[m]) for pair in dist for m in pair}
    return {(sets[w], sets[b]): d for (w, b), d in dist.items()}


PUZZLE = KnightSwap
