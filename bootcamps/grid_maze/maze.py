"""Mazes on a grid: cells open to their neighbours through missing walls. A cell's openings are a 4-bit mask
(U=1, R=2, D=4, L=8), one hex digit per cell, one string per row: JSON-friendly and small."""
from __future__ import annotations

from collections import deque
from typing import Any

MOVES = {"U": (-1, 0, 1), "R": (0, 1, 2), "D": (1, 0, 4), "L": (0, -1, 8)}
OPPOSITE = {1: 4, 2: 8, 4: 1, 8: 2}


def carve(rows: int, cols: int, rng: Any, loops: float) -> list[list[int]]:
    """A perfect maze by randomised depth-first search from a random cell, then `loops` x (rows x cols) extra
    walls removed so that several shortest paths may exist."""
    open_ = [[0] * cols for _ in range(rows)]
    start = (rng.randrange(rows), rng.randrange(cols))
    seen, stack = {start}, [start]
    while stack:
        r, c = stack[-1]
        choices = [(d, r + dr, c + dc, bit) for d, (dr, dc, bit) in MOVES.items()
                   if 0 <= r + dr < rows and 0 <= c + dc < cols and (r + dr, c + dc) not in seen]
        if not choices:
            stack.pop()
            continue
        _, nr, nc, bit = rng.choice(choices)
        open_[r][c] |= bit
        open_[nr][nc] |= OPPOSITE[bit]
        seen.add((nr, nc))
        stack.append((nr, nc))
    for _ in range(int(loops * rows * cols)):
        r, c = rng.randrange(rows), rng.randrange(cols)
        d = rng.choice("RD")
        dr, dc, bit = MOVES[d]
        if r + dr < rows and c + dc < cols:
            open_[r][c] |= bit
            open_[r + dr][c + dc] |= OPPOSITE[bit]
    return open_


def encode(open_: list[list[int]]) -> list[str]:
    return ["".join(f"{m:x}" for m in row) for row in open_]


def decode(rows: list[str]) -> list[list[int]]:
    return [[int(ch, 16) for ch in row] for row in rows]


def distances(open_: list[list[int]], start: tuple[int, int]) -> dict[tuple[int, int], tuple[int, str]]:
    """BFS from `start`: cell -> (distance, one shortest move string)."""
    out = {start: (0, "")}
    queue = deque([start])
    while queue:
        r, c = queue.popleft()
        dist, path = out[(r, c)]
        for d, (dr, dc, bit) in MOVES.items():
            nxt = (r + dr, c + dc)
            if open_[r][c] & bit and nxt not in out:
                out[nxt] = (dist + 1, path + d)
                queue.append(nxt)
    return out


def walk(open_: list[list[int]], start: tuple[int, int], moves: str) -> tuple[int, int] | None:
    """The cell `moves` ends on, or None when a move crosses a wall or leaves the grid."""
    r, c = start
    for d in moves:
        dr, dc, bit = MOVES[d]
        if not open_[r][c] & bit:
            return None
        r, c = r + dr, c + dc
    return r, c
