"""Tic-tac-toe rules, minimax, the seeded opponent, and the replay that both the verifier and the interaction use.

A board is a 9-character string, cells 1-9 row by row, each "X", "O" or " ". The model plays X. Each game shows
its own numbering of the cells (`labels`: cell i+1 shows labels[i]; games without it number cells 1-9 row by row),
so a sequence of numbers played blind to the board lands on different cells in every game.

The opponent's choice at ply p (marks already on the board) comes from a blake2b-keyed stream of (seed, p): with
probability `skill` among the minimax-optimal moves, otherwise among all legal moves; either way it takes a win it
has, else blocks X's immediate win, and prefers the moves that make the most threats of its own (two O in an open
line). Nothing reads the global RNG or the clock.
"""
from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass

from bc_common.seeding import RecordRandom

EMPTY = " " * 9
ROW_BY_ROW = tuple(range(1, 10))
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
_MOVE = re.compile(r"<move>([^<]{0,32})</move>")  # bounded: linear on hostile text


@functools.cache  # 3^9 boards at most
def winner(board: str) -> str | None:
    """"X" or "O" when that player has three in a row, else None."""
    for a, b, c in LINES:
        if board[a] != " " and board[a] == board[b] == board[c]:
            return board[a]
    return None


def winning_line(board: str) -> tuple[int, int, int] | None:
    """The completed line as cell numbers (1-9), or None."""
    for line in LINES:
        a, b, c = line
        if board[a] != " " and board[a] == board[b] == board[c]:
            return a + 1, b + 1, c + 1
    return None


def legal_moves(board: str) -> list[int]:
    """Empty cells (1-9), ascending; none once the game is over."""
    if winner(board):
        return []
    return [i + 1 for i, c in enumerate(board) if c == " "]


def place(board: str, cell: int, mark: str) -> str:
    return board[: cell - 1] + mark + board[cell:]


@functools.cache
def score(board: str, player: str) -> int:
    """Minimax value for X with `player` to move: +(10 - marks) when X wins, -(10 - marks) when O wins, 0 a draw.
    Faster wins score higher, so the values also order optimal moves by speed."""
    won = winner(board)
    marks = 9 - board.count(" ")
    if won:
        return (10 - marks) if won == "X" else -(10 - marks)
    if marks == 9:
        return 0
    other = "O" if player == "X" else "X"
    values = [score(place(board, m, player), other) for m in legal_moves(board)]
    return max(values) if player == "X" else min(values)


def outcome_value(board: str, player: str) -> int:
    """The game-theoretic value for X (-1, 0, 1) with `player` to move."""
    s = score(board, player)
    return (s > 0) - (s < 0)


def best_x_move(board: str) -> int:
    """A perfect X move: the best minimax score (fastest win, else a draw), lowest cell on ties."""
    moves = legal_moves(board)
    return max(moves, key=lambda m: (score(place(board, m, "X"), "O"), -m))


def opponent_rng(seed: int, ply: int) -> RecordRandom:
    """The opponent's random stream for one ply: blake2b of (seed, ply), independent of everything else."""
    key = f"tictactoe-opponent\x1f{int(seed)}\x1f{int(ply)}".encode()
    return RecordRandom(int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "little"))


@functools.cache
def threats(board: str, mark: str) -> int:
    """Open lines holding two of `mark` and an empty cell (a win next move)."""
    count = 0
    for a, b, c in LINES:
        line = board[a] + board[b] + board[c]
        if line.count(mark) == 2 and " " in line:
            count += 1
    return count


def opponent_move(board: str, seed: int, skill: float) -> int:
    """O's move on `board`: among minimax-optimal moves with probability `skill`, else among all legal moves.
    Never blind to the next move: it takes a win, else blocks X's win, and prefers moves making the most threats
    (so a policy that does not look at the board loses to it)."""
    moves = legal_moves(board)
    rng = opponent_rng(seed, 9 - board.count(" "))
    if rng.random() < float(skill):
        values = {m: outcome_value(place(board, m, "O"), "X") for m in moves}
        best = min(values.values())
        moves = [m for m in moves if values[m] == best]
    wins = [m for m in moves if winner(place(board, m, "O"))]
    blocks = [m for m in moves if winner(place(board, m, "X"))]
    moves = wins or blocks or moves
    pressure = {m: threats(place(board, m, "O"), "O") for m in moves}
    most = max(pressure.values())
    return rng.choice([m for m in moves if pressure[m] == most])


def labels_of(identity: dict) -> tuple[int, ...]:
    """The number each cell shows in this game (cell i+1 shows labels[i]); 1-9 row by row when not given."""
    labels = identity.get("labels")
    if labels is None:
        return ROW_BY_ROW
    if not isinstance(labels, list) or any(type(n) is not int for n in labels) or sorted(labels) != list(ROW_BY_ROW):
        raise ValueError("labels: must be a permutation of the numbers 1-9")
    return tuple(labels)


def cell_of(labels: tuple[int, ...], number: int | None) -> int | None:
    """The cell (1-9) showing `number`, or None for a number no cell shows."""
    return labels.index(number) + 1 if number in labels else None


def opening_board(identity: dict) -> str:
    """The board the model first sees: empty, or with O's opening move when O starts."""
    if identity.get("first") == "O":
        return place(EMPTY, opponent_move(EMPTY, identity["seed"], identity["skill"]), "O")
    return EMPTY


@dataclass
class Replay:
    """The game the X moves produce against the identity's opponent.

    `result`: "win" | "draw" | "loss" | "illegal" | "unfinished"; `board` is the last position (cells); `x_moves`
    and `o_moves` are the moves as the players name them (the numbers shown on the board), O's opening move
    included; `bad_move` is the offending move when illegal; `best_value` is the best game value (-1, 0, 1) X
    had at any of its turns: 1 once the opponent let X force a win."""

    result: str
    board: str
    x_moves: list[int | None]
    o_moves: list[int]
    bad_move: object = None
    best_value: int = -1

    @property
    def solved(self) -> bool:
        """The best result the opponent's play allowed: a win, or a draw when X never had a forced win."""
        return self.result == "win" or (self.result == "draw" and self.best_value <= 0)


def replay(identity: dict, x_moves: Iterable[int | None]) -> Replay:
    """Play `x_moves` (the numbers X named; None = a malformed move) against the deterministic opponent. Never
    raises on bad moves."""
    seed, skill = identity["seed"], identity["skill"]
    labels = labels_of(identity)
    board = opening_board(identity)
    o_moves = [labels[board.index("O")]] if "O" in board else []
    played: list[int | None] = []
    result = "unfinished"
    best = outcome_value(board, "X")
    for move in x_moves:
        played.append(move)
        cell = cell_of(labels, move)
        if result != "unfinished" or cell is None or board[cell - 1] != " ":
            return Replay("illegal", board, played, o_moves, move, best)
        board = place(board, cell, "X")
        if winner(board):
            result = "win"
        elif " " not in board:
            result = "draw"
        else:
            reply = opponent_move(board, seed, skill)
            o_moves.append(labels[reply - 1])
            board = place(board, reply, "O")
            if winner(board):
                result = "loss"
            elif " " not in board:
                result = "draw"
            else:
                best = max(best, outcome_value(board, "X"))
    return Replay(result, board, played, o_moves, None, best)


def move_in(text: str) -> int | None | str:
    """The move a reply makes: its last `<move>N</move>`. Returns the cell, None for a tag that is not a number
    (an illegal move), or "" when the text has no move tag at all."""
    found = _MOVE.findall(text or "")
    if not found:
        return ""
    value = found[-1].strip()
    return int(value) if value.isascii() and value.isdigit() and len(value) <= 2 else None


def moves_in(texts: Iterable[str]) -> list[int | None]:
    """X's moves from the assistant texts, in order: one per text that has a move tag (others are skipped)."""
    out: list[int | None] = []
    for text in texts:
        move = move_in(text)
        if move != "":
            out.append(move)  # type: ignore[arg-type]
    return out


def render(board: str, labels: tuple[int, ...] = ROW_BY_ROW) -> str:
    """The board as the model sees it: marks, and the number of every empty cell (this game's numbering)."""
    cells = [c if c != " " else str(labels[i]) for i, c in enumerate(board)]
    rows = [" " + " | ".join(cells[r * 3: r * 3 + 3]) for r in range(3)]
    return "\n---+---+---\n".join(rows)
