"""The minesweeper game the `reveal` tool runs and the verifier replays: one set of rules for both.

Cells are (row, col), 1-based as the model sees them. Revealing a cell with no neighbouring mine opens its
neighbours too (flood fill). The first reveal is always safe: a mine there moves to the first mine-free cell in
row-major order. Revealing every safe cell wins; revealing a mine loses. Nothing here is random.
"""
from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

HIDDEN, MINE = "#", "*"


class MoveError(Exception):
    """A move the game refuses (out of the board, after the game ended). It changes nothing."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind, self.message = kind, message


def neighbours(rows: int, cols: int, cell: tuple[int, int]) -> tuple[tuple[int, int], ...]:
    """The up to 8 cells around `cell`."""
    return _neighbour_table(rows, cols)[cell]


@functools.cache
def _neighbour_table(rows: int, cols: int) -> dict[tuple[int, int], tuple[tuple[int, int], ...]]:
    return {(r, c): tuple((r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                          if (dr or dc) and 1 <= r + dr <= rows and 1 <= c + dc <= cols)
            for r in range(1, rows + 1) for c in range(1, cols + 1)}


@dataclass
class Board:
    """A game in progress. `result` is "playing", "won" or "lost"."""

    rows: int
    cols: int
    mines: set[tuple[int, int]]
    revealed: set[tuple[int, int]] = field(default_factory=set)
    result: str = "playing"
    exploded: tuple[int, int] | None = None
    _counts: dict[tuple[int, int], int] | None = field(default=None, repr=False, compare=False)
    _view: list[list[str]] | None = field(default=None, repr=False, compare=False)  # what render shows

    @classmethod
    def of(cls, identity: dict) -> Board:
        return cls(identity["rows"], identity["cols"], {(r, c) for r, c in identity["mines"]})

    def count(self, cell: tuple[int, int]) -> int:
        """Mines next to `cell` (all counts computed once: every tool call renders the whole board)."""
        if self._counts is None:
            counts = dict.fromkeys(self.cells(), 0)
            for mine in self.mines:
                for n in neighbours(self.rows, self.cols, mine):
                    counts[n] += 1
            self._counts = counts
        return self._counts[cell]

    def check(self, r: int, c: int) -> tuple[int, int]:
        if self.result != "playing":
            raise MoveError("game_over", f"the game is over (you {self.result}); no more moves")
        if not (1 <= r <= self.rows and 1 <= c <= self.cols):
            raise MoveError("out_of_bounds", f"({r}, {c}) is off the board: rows 1-{self.rows}, "
                                             f"columns 1-{self.cols}")
        return r, c

    def reveal(self, r: int, c: int) -> str:
        """Reveal a cell; returns "mine", "already" or "opened". Raises MoveError for a refused move."""
        cell = self.check(r, c)
        if cell in self.revealed:
            return "already"
        if not self.revealed and cell in self.mines:  # the first reveal is always safe
            self.mines.discard(cell)
            self.mines.add(next(x for x in self.cells() if x not in self.mines and x != cell))
            self._counts = None
        if cell in self.mines:
            self.result, self.exploded = "lost", cell
            return "mine"
        todo = [cell]
        while todo:
            x = todo.pop()
            if x in self.revealed:
                continue
            self.revealed.add(x)
            if self._view is not None:
                self._view[x[0] - 1][x[1] - 1] = self._mark(x)
            if self.count(x) == 0:
                todo.extend(n for n in neighbours(self.rows, self.cols, x) if n not in self.revealed)
        if len(self.revealed) == self.rows * self.cols - len(self.mines):
            self.result = "won"
        return "opened"

    def cells(self) -> Iterator[tuple[int, int]]:
        return ((r, c) for r in range(1, self.rows + 1) for c in range(1, self.cols + 1))

    def visible(self) -> dict[tuple[int, int], int]:
        """What the player knows: the number of every revealed cell."""
        return {cell: self.count(cell) for cell in self.revealed}

    def render(self) -> str:
        """The board as the model sees it: `#` hidden, `.` no neighbouring mine, 1-8 the count; mines (`*`)
        only once the game is over."""
        width, margin = len(str(self.cols)), len(str(self.rows))
        if self._view is None:
            self._view = [[HIDDEN.rjust(width)] * self.cols for _ in range(self.rows)]
            for cell in self.revealed:
                self._view[cell[0] - 1][cell[1] - 1] = self._mark(cell)
        view = self._view
        if self.result != "playing":
            view = [row[:] for row in view]
            for r, c in self.mines - self.revealed:
                view[r - 1][c - 1] = MINE.rjust(width)
        lines = [" " * (margin + 1) + " ".join(f"{c:>{width}}" for c in range(1, self.cols + 1))]
        lines.extend(f"{r:>{margin}} {' '.join(row)}" for r, row in enumerate(view, start=1))
        return "\n".join(lines)

    def _mark(self, cell: tuple[int, int]) -> str:
        """A revealed cell as shown, padded to the column width."""
        return str(self.count(cell) or ".").rjust(len(str(self.cols)))


def parse_board(text: str) -> tuple[int, int, dict[tuple[int, int], int]] | None:
    """(rows, cols, revealed numbers) from a rendered board inside `text`, or None when there is none."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        header = line.split()
        if not header or header != [str(k) for k in range(1, len(header) + 1)]:
            continue
        cols, seen, rows = len(header), {}, 0
        for row_line in lines[i + 1:]:
            parts = row_line.split()
            if len(parts) != cols + 1 or parts[0] != str(rows + 1):
                break
            rows += 1
            for c, mark in enumerate(parts[1:], start=1):
                if mark == ".":
                    seen[(rows, c)] = 0
                elif mark.isdigit():
                    seen[(rows, c)] = int(mark)
        if rows:
            return rows, cols, seen
    return None


@dataclass
class Replay:
    """The outcome of replaying reveal moves: the final board and how many moves took effect."""

    board: Board
    moves: int


def replay(identity: dict, moves: Iterable[tuple[int, int]]) -> Replay:
    """Apply reveal moves in order against the identity's board; refused moves (off the board, after the end)
    change nothing, as in the tool."""
    board = Board.of(identity)
    applied = 0
    for r, c in moves:
        if board.result != "playing":
            break
        try:
            board.reveal(r, c)
            applied += 1
        except MoveError:
            continue
    return Replay(board, applied)
