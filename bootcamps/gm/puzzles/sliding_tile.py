"""The sliding tile puzzle (the 8-puzzle): slide tiles into the gap until they read 1-8 in rows with the gap last.
The optimum from the whole distance table (breadth-first from the goal); start boards are drawn uniformly among
the boards at the group's distances. The Manhattan distance guides the greedy baseline."""
from __future__ import annotations

import functools
import random
from typing import Any

from ..core import MoveError, Puzzle, bfs_distances

N = 3  # the 8-puzzle: its whole distance table (181,440 boards) is built once per process, in about a second


class SlidingTile(Puzzle):
    name = "sliding_tile"
    title = "Sliding tile puzzle"
    tool = "slide"
    tool_about = "Slide the numbered tile next to the gap into the gap. Returns the board after the move."
    parameters = {"tile": {"type": "integer", "description": "The number of a tile next to the gap."}}
    groups = {"easy": {"min_optimum": 12, "max_optimum": 14, "slack": 2},
              "medium": {"min_optimum": 15, "max_optimum": 17, "slack": 2},
              "hard": {"min_optimum": 18, "max_optimum": 20, "slack": 2}}
    # boards at those distances (the table's layers), before the generator drops the ones greedy play solves
    space_size = {"easy": 748 + 1024 + 1893, "medium": 2512 + 4485 + 5638, "hard": 9529 + 10878 + 16993}
    greedy_about = "the slide that leaves the smallest Manhattan distance, never back to a seen board"

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        layers = _layers()
        pool = [s for d in range(p.min_optimum, p.max_optimum + 1) for s in layers.get(d, ())]
        return {"board": list(rng.choice(pool))} if pool else None

    def distances(self, inst: dict[str, Any]) -> dict[tuple[int, ...], int]:
        return _table()

    def start(self, inst: dict[str, Any]) -> tuple[int, ...]:
        board = tuple(int(v) for v in inst["board"])
        if sorted(board) != list(range(N ** 2)):
            raise ValueError("board is not a permutation")
        return board

    def action(self, inst: dict[str, Any], args: dict[str, Any]) -> int:
        tile = int(args["tile"])
        if not 1 <= tile < N ** 2:
            raise MoveError("no_such_tile", f"there is no tile {tile}: tiles are 1-{N * N - 1}")
        return tile

    def args(self, action: int) -> dict[str, Any]:
        return {"tile": action}

    def legal(self, inst: dict[str, Any], state: tuple[int, ...]) -> list[int]:
        return sorted(state[c] for c in ADJACENT[state.index(0)])

    def step(self, inst: dict[str, Any], state: tuple[int, ...], action: int) -> tuple[int, ...]:
        gap, at = state.index(0), state.index(action)
        if at not in ADJACENT[gap]:
            raise MoveError("not_next_to_gap", f"tile {action} is not next to the gap")
        board = list(state)
        board[gap], board[at] = action, 0
        return tuple(board)

    def solved(self, inst: dict[str, Any], state: tuple[int, ...]) -> bool:
        return state == tuple(range(1, len(state))) + (0,)

    def estimate(self, inst: dict[str, Any], state: tuple[int, ...]) -> float:
        n = N
        return sum(abs(i // n - (v - 1) // n) + abs(i % n - (v - 1) % n) for i, v in enumerate(state) if v)

    def show(self, inst: dict[str, Any], state: tuple[int, ...]) -> str:
        n = N
        return "\n".join(" ".join(f"{v:>2}" if v else " ." for v in state[r * n:(r + 1) * n]) for r in range(n))

    def rules(self, inst: dict[str, Any]) -> str:
        n = N
        return (f"A sliding tile puzzle: {n * n - 1} numbered tiles on a {n}x{n} board with one gap (`.`). "
                f"Call `slide(tile)` to move a tile that is next to the gap (above, below, left or right of it) "
                f"into the gap. The goal is the tiles in order 1, 2, ..., {n * n - 1}, row by row from the top "
                f"left, with the gap in the bottom right corner.")

    def refused_args(self, inst: dict[str, Any], state: tuple[int, ...]) -> dict[str, Any] | None:
        near = set(self.legal(inst, state))
        far = [v for v in state if v and v not in near]
        return {"tile": far[0]} if far else None


@functools.cache
def _table() -> dict[tuple[int, ...], int]:
    def moves(board: tuple[int, ...]) -> list[tuple[int, ...]]:
        gap, out = board.index(0), []
        for c in ADJACENT[gap]:
            b = list(board)
            b[gap], b[c] = b[c], 0
            out.append(tuple(b))
        return out

    return bfs_distances([tuple(range(1, N * N)) + (0,)], moves)


@functools.cache
def _layers() -> dict[int, list[tuple[int, ...]]]:
    out: dict[int, list[tuple[int, ...]]] = {}
    for board, d in _table().items():
        out.setdefault(d, []).append(board)
    return {d: sorted(boards) for d, boards in out.items()}


def _adjacent(n: int, cell: int) -> list[int]:
    r, c = divmod(cell, n)
    return [rr * n + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if 0 <= rr < n and 0 <= cc < n]


PUZZLE = SlidingTile


ADJACENT = [_adjacent(N, c) for c in range(N * N)]
