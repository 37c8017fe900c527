"""The OpenSpiel games the adapter knows: how each is loaded, how deep its random openings go, and its groups.

A task is a position reached by seeded random play from the start, kept when the side to move can force a win in
exactly `depth` of its own moves (proved by `search.Search`) and blind play rarely finds it (`ODDS_LIMIT`). A
group is one depth of one board; harder groups need more moves.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

ODDS_LIMIT = 0.02  # a kept position: a random or greedy mover wins it with at most this chance


@dataclass(frozen=True)
class Board:
    """One group: an OpenSpiel game string, the depth of the forced win, and the random opening's length."""

    group: str
    spec: str  # pyspiel.load_game's argument, e.g. "mnk(m=5,n=5,k=4)"
    depth: int  # moves of the side to move that force the win (exactly this many: fewer do not)
    plies: tuple[int, int]  # the random opening's length in moves, drawn uniformly from this range
    budget: int = 3_000  # positions one proof may visit; a position that needs more is passed over

    @property
    def greedy(self) -> bool:
        """Whether the greedy baseline (take a move that wins at once, else random) is a test of this board: at
        depth 2 it is the random mover's first move, as every second move of a forced win wins at once."""
        return self.depth >= 3


@dataclass(frozen=True)
class GameSpec:
    """One OpenSpiel game offered as os/<name>."""

    name: str
    title: str  # the game's name in prose
    boards: tuple[Board, ...]
    rules: str  # a line on how the game is won, for the prompt
    sides: tuple[str, str] = ("x", "o")  # how the board shows player 0's and player 1's pieces

    @property
    def specs(self) -> frozenset[str]:
        return frozenset(b.spec for b in self.boards)

    def board(self, group: str) -> Board:
        for board in self.boards:
            if board.group == group:
                return board
        raise KeyError(group)


def _games(*specs: GameSpec) -> dict[str, GameSpec]:
    return {g.name: g for g in specs}


GAMES: dict[str, GameSpec] = _games(
    GameSpec("connect_four", "Connect Four", (
        Board("6x7", "connect_four()", 2, (8, 36)),),
        "Players drop discs into columns; four in a row (across, down or diagonal) wins."),
    GameSpec("mnk", "m,n,k-game (four in a row)", (
        Board("7x7_k4", "mnk(m=7,n=7,k=4)", 2, (4, 24)),),
        "Players place stones on empty cells; four in a row (across, down or diagonal) wins."),
    GameSpec("hex", "Hex", (
        Board("6x6", "hex(board_size=6)", 2, (6, 22)),
        Board("7x7", "hex(board_size=7)", 2, (8, 30))),
        "x connects the top and bottom edges, o the left and right edges; the first to connect wins."),
    GameSpec("breakthrough", "Breakthrough", (
        Board("6x6", "breakthrough(rows=6,columns=6)", 2, (10, 50)),
        Board("8x8", "breakthrough", 2, (16, 80))),
        "Pieces move one step forward or diagonally forward (capturing diagonally); reaching the far row or "
        "capturing every enemy piece wins.", sides=("b", "w")),
    GameSpec("clobber", "Clobber", (
        Board("5x5", "clobber(rows=5,columns=5)", 2, (8, 22)),
        Board("6x6", "clobber(rows=6,columns=6)", 2, (12, 34))),
        "A move takes an adjacent enemy stone (up, down, left, right); the player who cannot move loses."),
    GameSpec("othello", "Othello", (
        Board("8x8", "othello", 2, (50, 60)),),
        "A move flanks enemy discs, which turn over; when neither side can move, the side with more discs wins."),
    GameSpec("checkers", "Checkers", (
        Board("8x8", "checkers", 2, (30, 100)),),
        "Men move diagonally forward and must capture when they can; a side that cannot move or has no pieces "
        "loses.", sides=("o", "+")),
    GameSpec("dots_and_boxes", "Dots and Boxes", (
        Board("2x2", "dots_and_boxes(num_rows=2,num_cols=2)", 2, (5, 10)),
        Board("3x3", "dots_and_boxes(num_rows=3,num_cols=3)", 2, (12, 22))),
        "A move draws a line; completing a box scores it and moves again; the most boxes at the end wins."),
    GameSpec("twixt", "TwixT", (
        Board("8x8", "twixt(board_size=8)", 2, (6, 30)),),
        "Players place pegs; two pegs of one colour a knight's move apart are linked unless an existing link "
        "crosses; x links the top and bottom rows, o the left and right columns; the first to connect wins."),
    GameSpec("tic_tac_toe", "Tic-tac-toe", (
        Board("3x3", "tic_tac_toe", 2, (2, 5)),),
        "Three in a row wins."),
    GameSpec("pentago", "Pentago", (
        Board("6x6", "pentago", 2, (8, 24)),),
        "Place a marble, then turn a quadrant; five in a row wins."),
    GameSpec("havannah", "Havannah", (
        Board("size_5", "havannah(board_size=5)", 2, (10, 40)),),
        "A ring, a bridge (two corners) or a fork (three edges) wins.", sides=("O", "@")),
    GameSpec("y", "Game of Y", (
        Board("size_8", "y(board_size=8)", 2, (8, 30)),
        Board("size_10", "y(board_size=10)", 2, (10, 44))),
        "A chain touching all three sides wins.", sides=("O", "@")),
    GameSpec("oware", "Oware", (
        Board("6x2", "oware", 2, (40, 120)),),
        "Sow seeds counter-clockwise; capture twos and threes on the enemy side; more than half the seeds wins."),
    GameSpec("nine_mens_morris", "Nine Men's Morris", (
        Board("24_points", "nine_mens_morris", 2, (20, 80)),),
        "A mill (three in a line) removes an enemy piece; a side left with two pieces or no move loses."),
    GameSpec("lines_of_action", "Lines of Action", (
        Board("8x8", "lines_of_action", 2, (10, 60)),),
        "Move a piece as many cells as there are pieces on its line; connecting all your pieces wins."),
    GameSpec("ultimate_tic_tac_toe", "Ultimate Tic-tac-toe", (
        Board("9x9", "ultimate_tic_tac_toe", 2, (20, 60)),),
        "Win three small boards in a row; your move sends the opponent to the matching small board."),
    GameSpec("antichess", "Antichess", (
        Board("8x8", "antichess", 2, (10, 60)),),
        "Captures are compulsory; losing all your pieces (or having no move) wins."),
    GameSpec("amazons", "Amazons", (
        Board("10x10", "amazons", 2, (40, 80)),),
        "Move a queen, then shoot an arrow; the player who cannot move loses."),
)


@functools.cache
def load(spec: str) -> Any:
    """The pyspiel game of `spec` (loaded once per process)."""
    import pyspiel

    return pyspiel.load_game(spec)
