"""ta/sudoku: TextArena's Sudoku with 30 clues (unique solutions, made by TextArena).

TextArena checks every placement against the solution: a wrong number is an invalid move, and two invalid moves
in a row lose the game. With 40 clues or more (its own variants have 40-75) so many cells have one legal number
that a random legal filler wins (measured: 10% of 50 games at 40 clues), so 30 clues is the one group."""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from bc_common.bootcamp import Baseline, Group, ReferencePolicy, assistant_texts

from ..game import Game
from ..play import replay


@dataclass
class Config:
    clues: int = 30  # filled cells of the 81 at the start

    def validate(self) -> None:
        if not 28 <= self.clues <= 60:
            raise ValueError("clues must be in [28, 60] (fewer takes TextArena seconds per puzzle)")


def draw(rng: random.Random, config: Config, seed: int) -> dict[str, Any]:
    return {"clues": config.clues, "max_turns": 100}


def legal(board: list[list[int]], row: int, col: int, num: int) -> bool:
    """`num` breaks no row, column or box of `board` at (row, col)."""
    if any(board[row][c] == num for c in range(9)) or any(board[r][col] == num for r in range(9)):
        return False
    r0, c0 = row - row % 3, col - col % 3
    return all(board[r][c] != num for r in range(r0, r0 + 3) for c in range(c0, c0 + 3))


class _Filler(ReferencePolicy):
    def choose(self, board: list[list[int]], solution: list[list[int]]) -> tuple[int, int, int]:
        raise NotImplementedError

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        game = replay(self.identity, assistant_texts(messages)).match
        board, solution = game.game_state["board"], game.env.full_grid
        row, col, num = self.choose(board, solution)
        if wrong:  # another number for the cell, one the rules allow where there is one: TextArena refuses it
            others = [n for n in range(1, 10) if n != solution[row][col]]
            num = next((n for n in others if legal(board, row, col, n)), others[0])
        return {"role": "assistant", "content": f"[{row + 1} {col + 1} {num}]"}


def empty_cells(board: list[list[int]]) -> list[tuple[int, int]]:
    return [(r, c) for r in range(9) for c in range(9) if board[r][c] == 0]


class Solution(_Filler):
    """The puzzle's (unique) solution, cell by cell, row by row."""

    def choose(self, board: list[list[int]], solution: list[list[int]]) -> tuple[int, int, int]:
        row, col = empty_cells(board)[0]
        return row, col, solution[row][col]


class FirstLegal(_Filler):
    """Baseline: the first empty cell, with the smallest number the rules allow there."""

    def choose(self, board: list[list[int]], solution: list[list[int]]) -> tuple[int, int, int]:
        row, col = empty_cells(board)[0]
        return row, col, next((n for n in range(1, 10) if legal(board, row, col, n)), 1)


class RandomFill(_Filler):
    """Baseline: a random empty cell and a random number the rules allow there."""

    def choose(self, board: list[list[int]], solution: list[list[int]]) -> tuple[int, int, int]:
        row, col = self.rng.choice(empty_cells(board))
        allowed = [n for n in range(1, 10) if legal(board, row, col, n)] or [1]
        return row, col, self.rng.choice(allowed)


GAME = Game(
    name="sudoku", env_id="Sudoku-v0", players=1,
    about="TextArena Sudoku: fill a 9x9 grid from 30 clues, one cell per move; a wrong number is refused.",
    config=Config, draw=draw,
    groups=[Group("30_clues", {"clues": 30})],
    policy=Solution,
    baselines=[Baseline("first_legal", FirstLegal, "the first empty cell, the smallest number the rules allow"),
               Baseline("random", RandomFill, "a random empty cell, a random number the rules allow")],
    answer_format="Reply with one placement as [row column number], rows and columns 1-9, e.g. [1 3 7].",
    max_moves=110,
    conformance={"distinct_n": 100},  # a puzzle takes TextArena 0.1-0.4 s to make
)
