"""k-in-a-row puzzles: X to move on an n x n board wins within `moves` of its own moves, whatever O answers.

A board is a string of n*n cells, row by row, each "X", "O" or "."; cell i (0-based) shows the number i+1. The
win is forced by continuous threats (every X move makes a line that wins next move, so O's reply is forced, and
the last one makes two): `forced_win` finds it. O is a scripted defender: it takes a win, else blocks X's win,
else takes the cell where X would make two threats at once, else the cell worth most to both sides; ties are
broken by a blake2b-keyed stream of (seed, stones on the board), so a game is a pure function of the X moves.
"""
from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

from bc_common.seeding import RecordRandom

EMPTY_CELL = "."


@functools.cache
def windows(n: int, k: int) -> tuple[tuple[int, ...], ...]:
    """Every line of k cells on an n x n board (rows, columns, both diagonals), as cell indices."""
    out = []
    for r in range(n):
        for c in range(n):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_r, end_c = r + dr * (k - 1), c + dc * (k - 1)
                if 0 <= end_r < n and 0 <= end_c < n:
                    out.append(tuple((r + dr * i) * n + c + dc * i for i in range(k)))
    return tuple(out)


@functools.cache
def masks(n: int, k: int) -> tuple[int, ...]:
    """The lines of k cells as bit masks (bit i = cell i): the search works on two masks, X's and O's stones."""
    return tuple(sum(1 << i for i in window) for window in windows(n, k))


@functools.cache
def masks_through(n: int, k: int) -> tuple[tuple[int, ...], ...]:
    """For every cell, the masks of the lines through it."""
    return tuple(tuple(m for m in masks(n, k) if m >> cell & 1) for cell in range(n * n))


def cells_of(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def to_masks(board: str) -> tuple[int, int]:
    """(X's stones, O's stones) of a board string."""
    x = o = 0
    for i, c in enumerate(board):
        if c == "X":
            x |= 1 << i
        elif c == "O":
            o |= 1 << i
    return x, o


def to_board(x: int, o: int, n: int) -> str:
    return "".join("X" if x >> i & 1 else "O" if o >> i & 1 else EMPTY_CELL for i in range(n * n))


@functools.lru_cache(maxsize=500_000)
def wins_mask(mine: int, theirs: int, n: int, k: int) -> int:
    """The empty cells where the player holding `mine` completes a line now, as a mask."""
    out = 0
    for m in masks(n, k):
        if not theirs & m and (mine & m).bit_count() == k - 1:
            out |= m & ~mine
    return out


def threat_mask(mine: int, theirs: int, n: int, k: int) -> int:
    """Empty cells that leave `mine` a line to complete next move (the candidates of a forcing line)."""
    out = 0
    for m in masks(n, k):
        if not theirs & m and (mine & m).bit_count() == k - 2:
            out |= m & ~mine
    return out


def fork_mask(mine: int, theirs: int, n: int, k: int) -> int:
    """Empty cells where `mine` would make two or more winning cells at once."""
    out = 0
    for cell in cells_of(threat_mask(mine, theirs, n, k)):
        if wins_mask(mine | 1 << cell, theirs, n, k).bit_count() >= 2:
            out |= 1 << cell
    return out


def has_line(mine: int, n: int, k: int) -> bool:
    return any(mine & m == m for m in masks(n, k))


@functools.lru_cache(maxsize=500_000)
def forced_win(x: int, o: int, n: int, k: int, moves: int) -> int | None:
    """An X move (the lowest cell) that wins within `moves` X moves by continuous threats against any defence,
    else None. X to move."""
    won = wins_mask(x, o, n, k)
    if won:
        return cells_of(won)[0]
    if moves <= 1:
        return None
    o_wins = wins_mask(o, x, n, k)
    if o_wins.bit_count() > 1:
        return None
    for cell in cells_of(o_wins or threat_mask(x, o, n, k)):
        after = x | 1 << cell
        x_wins = wins_mask(after, o, n, k)
        if x_wins.bit_count() >= 2:
            return cell
        if x_wins and forced_win(after, o | x_wins, n, k, moves - 1) is not None:
            return cell
    return None


def shortest_win(x: int, o: int, n: int, k: int, moves: int) -> tuple[int, int] | None:
    """(X moves needed, the first move) of the shortest forced win within `moves`, else None."""
    for depth in range(1, moves + 1):
        cell = forced_win(x, o, n, k, depth)
        if cell is not None:
            return depth, cell
    return None


def defender_rng(seed: int, ply: int) -> RecordRandom:
    """O's random stream at one ply: blake2b of (seed, ply), independent of everything else."""
    key = f"tictactoe-defender\x1f{int(seed)}\x1f{int(ply)}".encode()
    return RecordRandom(int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "little"))


def cell_worth(mine: int, theirs: int, n: int, k: int, cell: int) -> int:
    """How much a cell is worth to the player holding `mine`: the squared stone counts of the open lines through
    it (longer lines count more), its own and, as blocks, the other side's."""
    worth = 0
    for m in masks_through(n, k)[cell]:
        if not theirs & m:
            worth += (mine & m).bit_count() ** 2 + 1
        if not mine & m:
            worth += (theirs & m).bit_count() ** 2
    return worth


def empty_cells(x: int, o: int, n: int) -> list[int]:
    return cells_of(((1 << n * n) - 1) & ~(x | o))


def defender_move(x: int, o: int, n: int, k: int, seed: int) -> int:
    """O's reply: a win, else a block of X's win, else the cell where X would fork, else the cell worth most."""
    rng = defender_rng(seed, (x | o).bit_count())
    choices = cells_of(wins_mask(o, x, n, k) or wins_mask(x, o, n, k) or fork_mask(x, o, n, k))
    if not choices:
        worth = {c: cell_worth(o, x, n, k, c) for c in empty_cells(x, o, n)}
        best = max(worth.values())
        choices = [c for c, w in worth.items() if w == best]
    return rng.choice(choices)


@dataclass(frozen=True)
class Puzzle:
    """The identity's facts: board size n, line length k, X moves allowed, the position, the defender's seed."""

    n: int
    k: int
    moves: int
    board: str
    seed: int

    @classmethod
    def of(cls, identity: dict) -> Puzzle:
        n, k, moves, board = identity["n"], identity["k"], identity["moves"], identity["board"]
        if not (isinstance(n, int) and 3 <= n <= 9 and isinstance(k, int) and 3 <= k <= n):
            raise ValueError("n, k: need 3 <= k <= n <= 9")
        if not (isinstance(moves, int) and 1 <= moves <= 10):
            raise ValueError("moves: need an integer in 1-10")
        if not isinstance(board, str) or len(board) != n * n or set(board) - {"X", "O", EMPTY_CELL}:
            raise ValueError(f"board: need {n * n} cells, each X, O or '.'")
        return cls(n, k, moves, board, identity["seed"])


@dataclass
class PuzzleGame:
    """The game X's moves make: `result` is "win" | "lost" (O completed a line) | "out_of_moves" | "draw" |
    "illegal" | "unfinished"; `o_moves` are O's replies (numbers as shown); `bad_move` the offending move."""

    result: str
    board: str
    x_moves: list[int | None]
    o_moves: list[int]
    bad_move: object = None

    @property
    def solved(self) -> bool:
        return self.result == "win"


def play(puzzle: Puzzle, x_moves: Iterable[int | None]) -> PuzzleGame:
    """Play the numbers X named (None: a malformed move) against the defender. Never raises on bad moves."""
    n, k = puzzle.n, puzzle.k
    x, o = to_masks(puzzle.board)
    played: list[int | None] = []
    o_moves: list[int] = []
    result = "unfinished"
    for move in x_moves:
        played.append(move)
        cell = move - 1 if isinstance(move, int) and 1 <= move <= n * n else None
        if result != "unfinished" or cell is None or (x | o) >> cell & 1:
            return PuzzleGame("illegal", to_board(x, o, n), played, o_moves, move)
        x |= 1 << cell
        if has_line(x, n, k):
            result = "win"
        elif len(played) >= puzzle.moves:
            result = "out_of_moves"
        elif not empty_cells(x, o, n):
            result = "draw"
        else:
            reply = defender_move(x, o, n, k, puzzle.seed)
            o_moves.append(reply + 1)
            o |= 1 << reply
            if has_line(o, n, k):
                result = "lost"
            elif not empty_cells(x, o, n):
                result = "draw"
    return PuzzleGame(result, to_board(x, o, n), played, o_moves)


def render(board: str, n: int) -> str:
    """The board as the model sees it: X, O, and the number of every empty cell, row by row."""
    width = len(str(n * n))
    cells = [c if c != EMPTY_CELL else str(i + 1) for i, c in enumerate(board)]
    return "\n".join(" ".join(cell.rjust(width) for cell in cells[r * n:(r + 1) * n]) for r in range(n))
