"""ta/rush_hour: TextArena's RushHour (slide cars one cell at a time until the red car X reaches the exit) in
exactly the moves of the shortest solution.

TextArena's puzzle has no turn limit; here the budget is the fewest moves that solve the drawn board
(breadth-first search over car positions when the task is made), and boards that a lazy rule solves within it
(drive X forward when it can, else move the first car in its way) are redrawn, as are boards solved in fewer than
`min_moves` moves. A wrong move cannot be undone for free: undoing it is a move too."""
from __future__ import annotations

import functools
import random
from collections import deque
from dataclasses import dataclass
from typing import Any

from bc_common.bootcamp import Baseline, Group, ReferencePolicy, assistant_texts

from ..arena import Match
from ..game import Drawn, Game
from ..play import replay

SIZE, EXIT_ROW = 6, 2
MAX_STATES = 100_000
# a board: ((vid, row, col, length, horizontal), ...) sorted by vid
Car = tuple[str, int, int, int, bool]
Board = tuple[Car, ...]


@dataclass
class Config:
    min_moves: int = 6  # boards whose shortest solution is shorter are redrawn

    def validate(self) -> None:
        if not 3 <= self.min_moves <= 30:
            raise ValueError("min_moves must be in [3, 30]")


def board_of(game_state: dict[str, Any]) -> Board:
    return tuple(sorted((v.vid, v.row, v.col, v.length, v.horizontal) for v in game_state["vehicles"].values()))


def cells(car: Car) -> list[tuple[int, int]]:
    _, row, col, length, horizontal = car
    return [(row, col + i) if horizontal else (row + i, col) for i in range(length)]


def solved(board: Board) -> bool:
    x = next(c for c in board if c[0] == "X")
    return x[4] and x[1] == EXIT_ROW and x[2] >= SIZE - x[3]


def moved(board: Board, index: int, forward: bool) -> Board | None:
    """The board after moving car `index` one cell, or None when TextArena refuses the move."""
    vid, row, col, length, horizontal = board[index]
    step = 1 if forward else -1
    if horizontal:
        target = (row, col + length) if forward else (row, col - 1)
    else:
        target = (row + length, col) if forward else (row - 1, col)
    if not (0 <= target[0] < SIZE and 0 <= target[1] < SIZE):
        return None  # TextArena's exit move (X leaving the board) is never needed: X at the exit has won
    if any(target in cells(c) for c in board):
        return None
    car = (vid, row + (0 if horizontal else step), col + (step if horizontal else 0), length, horizontal)
    return board[:index] + (car,) + board[index + 1:]


def moves_from(board: Board) -> list[tuple[str, Board]]:
    """Every legal move as (`[A+]`-style text, board after it), in car order, + before -."""
    out = []
    for i, car in enumerate(board):
        for forward in (True, False):
            nxt = moved(board, i, forward)
            if nxt is not None:
                out.append((f"[{car[0]}{'+' if forward else '-'}]", nxt))
    return out


@functools.lru_cache(maxsize=4096)
def solve(board: Board) -> tuple[str, ...] | None:
    """The shortest solution (moves as texts), or None when there is none within MAX_STATES boards."""
    parent: dict[Board, tuple[Board, str] | None] = {board: None}
    queue = deque([board])
    while queue:
        state = queue.popleft()
        if solved(state):
            path = []
            while parent[state] is not None:
                state, move = parent[state]
                path.append(move)
            return tuple(reversed(path))
        for move, nxt in moves_from(state):
            if nxt not in parent:
                parent[nxt] = (state, move)
                queue.append(nxt)
        if len(parent) > MAX_STATES:
            return None
    return None


def lazy_move(board: Board) -> str:
    """X forward when it can move; else the first legal move of the first car in X's way (else any legal move)."""
    options = moves_from(board)
    x = next(c for c in board if c[0] == "X")
    if "[X+]" in [m for m, _ in options]:
        return "[X+]"
    ahead = {(EXIT_ROW, col) for col in range(x[2] + x[3], SIZE)}
    blockers = [c[0] for c in board if set(cells(c)) & ahead]
    for move, _ in options:
        if move[1] in blockers:
            return move
    return options[0][0] if options else "[X+]"


def lazy_solves(board: Board, budget: int) -> bool:
    for _ in range(budget):
        move = lazy_move(board)
        board = dict(moves_from(board)).get(move, board)
        if solved(board):
            return True
    return False


def draw(rng: random.Random, config: Config, seed: int) -> Drawn | None:
    board = board_of(Match("RushHour-v0", {}, seed, 1).game_state)
    moves = solve(board)
    if moves is None or len(moves) < config.min_moves or lazy_solves(board, len(moves)):
        return None
    return Drawn({}, len(moves))


class _Driver(ReferencePolicy):
    def choose(self, board: Board) -> str:
        raise NotImplementedError

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        board = board_of(replay(self.identity, assistant_texts(messages)).match.game_state)
        if wrong:  # a legal move off every shortest solution (one that does not bring the exit a move nearer)
            best = len(solve(board) or ())
            move = next((m for m, nxt in moves_from(board) if len(solve(nxt) or range(best + 1)) >= best), "[X-]")
        else:
            move = self.choose(board)
        return {"role": "assistant", "content": move}


class Shortest(_Driver):
    """The first move of a shortest solution of the board it sees."""

    def choose(self, board: Board) -> str:
        return (solve(board) or ("[X+]",))[0]


class Lazy(_Driver):
    """Baseline: X forward when it can, else the first car in its way."""

    def choose(self, board: Board) -> str:
        return lazy_move(board)


class RandomMove(_Driver):
    """Baseline: a random legal move."""

    def choose(self, board: Board) -> str:
        options = moves_from(board)
        return self.rng.choice(options)[0] if options else "[X+]"


GAME = Game(
    name="rush_hour", env_id="RushHour-v0", players=1,
    about="TextArena RushHour: free the red car in exactly the moves of the shortest solution.",
    config=Config, draw=draw,
    # one group: TextArena takes about a second to make a board, and one board in ten needs 10 moves or more
    groups=[Group("6_moves", {"min_moves": 6})],
    policy=Shortest,
    baselines=[Baseline("random", RandomMove, "a random legal move"),
               Baseline("lazy", Lazy, "the red car forward when it can, else the first car in its way")],
    answer_format="Reply with exactly one move and nothing else, e.g. [B-] (a car's letter, + or -).",
    max_moves=60,
    conformance={"distinct_n": 100},
)
