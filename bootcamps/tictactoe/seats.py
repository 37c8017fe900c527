"""The seated game: a whole 3x3 game of tic-tac-toe between two models, X and O, from the empty board (cells
numbered 1-9 row by row). Each seat is told the other's moves and the board, nothing else."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import ReferencePolicy, SeatedGame, SeatOutcome

from .game import EMPTY, legal_moves, move_in, place, render, score, winner
from .heuristics import win_block_centre
from .puzzle import to_masks

RULES = ("Reply with exactly one move per turn, written as <move>N</move> where N is the number of an empty cell. "
         "Three in a row (a row, a column or a diagonal) wins; a full board without one is a draw. An occupied "
         "cell, a number outside 1-9 or a reply without a move loses at once.")


class TicTacToeMatch(SeatedGame):
    """X moves first. A reply without a legal move loses the game for its seat."""

    seats = ("X", "O")
    max_moves = 5

    def __init__(self, identity: dict[str, Any]):
        super().__init__(identity)
        self.board = EMPTY
        self.last: dict[str, int] = {}
        self.forfeit: tuple[str, str] | None = None  # (seat, reason)

    def to_move(self) -> str | None:
        if self.forfeit or winner(self.board) or " " not in self.board:
            return None
        return "X" if self.board.count("X") == self.board.count("O") else "O"

    def view(self, seat: str, first: bool) -> str:
        other = "O" if seat == "X" else "X"
        board = render(self.board)
        said = f"{other} played {self.last[other]}." if other in self.last else ""
        if not first:
            return f"{said}\n\n{board}\n\nYour move: <move>N</move>."
        opening = "You move first." if seat == "X" else f"X moved first: {said}"
        return (f"Let's play tic-tac-toe against another player. You are {seat}, your opponent is {other}. "
                f"{opening}\n\n{board}\n\n{RULES}")

    def play(self, seat: str, text: str) -> None:
        move = move_in(text)
        if move == "":
            self.forfeit = (seat, "no move")
        elif not isinstance(move, int) or move not in legal_moves(self.board):
            self.forfeit = (seat, "illegal move")
        else:
            self.board = place(self.board, move, seat)
            self.last[seat] = move

    def outcome(self) -> dict[str, SeatOutcome]:
        if self.forfeit:
            loser, reason = self.forfeit
            return {s: SeatOutcome("loss" if s == loser else "win", reason) for s in self.seats}
        won = winner(self.board)
        if won:
            return {s: SeatOutcome("win" if s == won else "loss", "three in a row") for s in self.seats}
        return {s: SeatOutcome("draw", "full board") for s in self.seats}


def board_in(messages: list[dict[str, Any]]) -> str:
    """The board of the last user message (the rows ` a | b | c` it shows), as cells "X", "O" or " "."""
    for message in reversed(messages):
        if message.get("role") != "user":
            continue
        rows = [line.strip() for line in str(message.get("content") or "").splitlines() if line.count("|") == 2]
        if len(rows) >= 3:
            cells = [c.strip() for row in rows[-3:] for c in row.split("|")]
            return "".join(c if c in ("X", "O") else " " for c in cells)
    return EMPTY


class _SeatPolicy(ReferencePolicy):
    """Plays `choose(board, mark)` for its seat (`identity["seat"]`) on the board it was last shown."""

    def choose(self, board: str, mark: str) -> int:
        raise NotImplementedError

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        board = board_in(messages)
        if wrong:  # an illegal move: a taken cell, or 10 on an empty board
            move = next((i + 1 for i, c in enumerate(board) if c != " "), 10)
        else:
            move = self.choose(board, self.identity["seat"])
        return {"role": "assistant", "content": f"I play {move}.\n<move>{move}</move>"}


class SeatReference(_SeatPolicy):
    """Perfect play for either seat (minimax, fastest win, lowest cell on ties): never loses."""

    def choose(self, board: str, mark: str) -> int:
        sign = 1 if mark == "X" else -1  # score() is X's value: O minimises it
        other = "O" if mark == "X" else "X"
        return max(legal_moves(board), key=lambda m: (sign * score(place(board, m, mark), other), -m))


class SeatRandom(_SeatPolicy):
    """Baseline: a random empty cell."""

    def choose(self, board: str, mark: str) -> int:
        return self.rng.choice(legal_moves(board))


class SeatWinBlockCentre(_SeatPolicy):
    """Baseline: take a win, else block, else the free cell nearest the centre."""

    def choose(self, board: str, mark: str) -> int:
        x, o = to_masks(board.replace(" ", "."))
        mine, theirs = (x, o) if mark == "X" else (o, x)
        return self.rng.choice(win_block_centre(mine, theirs, 3, 3)) + 1


TicTacToeMatch.policy = SeatReference
TicTacToeMatch.baselines = {"random": SeatRandom, "win_block_centre": SeatWinBlockCentre}
