"""ta/fifteen_puzzle: TextArena's 15-puzzle (slide tiles into order) within the moves a staged solver needs.

TextArena shuffles all sixteen squares, so half its boards cannot be solved; those are redrawn. The budget is the
length of the reference's solution: the tiles placed in stages (1 2, 3 4, 5 9 13, 6 7 8, 10 14, 11 12 15), each
stage by the fewest moves of its tiles and the blank that keep the placed tiles in place (breadth-first search).
Its moves total 60-100 (an optimal solution takes about 50; a random walk never solves a board).

TextArena 0.7.4's FifteenPuzzle calls `state.set_winners` on the move that solves the board, a method its
`SinglePlayerState` lacks (AttributeError): no game could be won as installed. The move itself is made before the
call fails, so the adapter checks the board itself (`finish_solved`, registered in `arena.LIBRARY_BUGS`): on a solved
board it ends the game as TextArena's other single-player games end a win (`set_outcome(reward=1.0)`); any other
exception, or this one on a board that is not solved, still raises."""
from __future__ import annotations

import functools
import random
from collections import deque
from dataclasses import dataclass
from typing import Any

from bc_common.bootcamp import Baseline, Group, ReferencePolicy, assistant_texts

from ..arena import LIBRARY_BUGS, Match
from ..game import Drawn, Game
from ..play import replay

# the blank's step for each move: "up" slides the tile below the blank up, so the blank goes down
BLANK_STEP = {"up": 4, "down": -4, "left": 1, "right": -1}
STAGES = ((1, 2), (3, 4), (5, 9, 13), (6, 7, 8), (10, 14), (11, 12, 15))
GOAL = tuple(range(1, 16)) + (0,)
Board = tuple[int, ...]  # 16 squares row by row, 0 the blank


@dataclass
class Config:
    slack: int = 0  # moves allowed beyond the staged solution's

    def validate(self) -> None:
        if not 0 <= self.slack <= 50:
            raise ValueError("slack must be in [0, 50]")


def board_of(game_state: dict[str, Any]) -> Board:
    return tuple(0 if x is None else int(x) for row in game_state["board"] for x in row)


def neighbours(square: int) -> list[tuple[str, int]]:
    """(move, the blank's next square) for a blank at `square`, in up, down, left, right order."""
    row, col = divmod(square, 4)
    out = []
    for move, step in BLANK_STEP.items():
        if (move == "up" and row < 3) or (move == "down" and row > 0) or (move == "left" and col < 3) \
                or (move == "right" and col > 0):
            out.append((move, square + step))
    return out


def solvable(board: Board) -> bool:
    """The classic parity rule: inversions plus the blank's row from the bottom is odd."""
    tiles = [t for t in board if t]
    inversions = sum(1 for i in range(15) for j in range(i + 1, 15) if tiles[i] > tiles[j])
    return (inversions + (3 - board.index(0) // 4)) % 2 == 0


def stage_moves(board: Board, tiles: tuple[int, ...], fixed: frozenset[int]) -> list[str]:
    """The fewest moves that bring `tiles` home without moving a square in `fixed` (breadth-first over the
    squares of the blank and of `tiles`; the other tiles are alike)."""
    start = (board.index(0), *(board.index(t) for t in tiles))
    goal = tuple(t - 1 for t in tiles)
    parent: dict[tuple[int, ...], tuple[tuple[int, ...], str] | None] = {start: None}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        if state[1:] == goal:
            path = []
            while parent[state] is not None:
                state, move = parent[state]
                path.append(move)
            return path[::-1]
        blank = state[0]
        for move, square in neighbours(blank):
            if square in fixed:
                continue
            nxt = (square, *(blank if p == square else p for p in state[1:]))
            if nxt not in parent:
                parent[nxt] = (state, move)
                queue.append(nxt)
    raise ValueError(f"tiles {tiles} cannot be placed from {board}")


def apply(board: Board, move: str) -> Board:
    blank = board.index(0)
    square = dict(neighbours(blank))[move]
    out = list(board)
    out[blank], out[square] = out[square], 0
    return tuple(out)


@functools.lru_cache(maxsize=1024)
def solution(board: Board) -> tuple[str, ...]:
    """The staged solution of a solvable board."""
    moves: list[str] = []
    fixed: set[int] = set()
    for tiles in STAGES:
        for move in stage_moves(board, tiles, frozenset(fixed)):
            board = apply(board, move)
            moves.append(move)
        fixed |= {t - 1 for t in tiles}
    assert board == GOAL, board
    return tuple(moves)


def finish_solved(env: Any, exc: BaseException) -> bool:
    """The winning move TextArena 0.7.4 cannot finish (`'SinglePlayerState' object has no attribute
    'set_winners'`): when the board is solved, end the game as a win and say so; else False (the error stands)."""
    if not (isinstance(exc, AttributeError) and "set_winners" in str(exc)) or env.state.done:
        return False
    if board_of({"board": env.board}) != GOAL:
        return False
    env.state.set_outcome(reward=1.0, reason="Congratulations! You have successfully solved the 15-Puzzle.")
    return True


LIBRARY_BUGS["FifteenPuzzle-v0"] = finish_solved


def draw(rng: random.Random, config: Config, seed: int) -> Drawn | None:
    board = board_of(Match("FifteenPuzzle-v0", {"max_turns": 1000}, seed, 1).game_state)
    if not solvable(board):
        return None
    return Drawn({"max_turns": 1000}, len(solution(board)) + config.slack)


def misplaced_distance(board: Board) -> int:
    return sum(abs(i // 4 - (t - 1) // 4) + abs(i % 4 - (t - 1) % 4) for i, t in enumerate(board) if t)


class _Slider(ReferencePolicy):
    def choose(self, board: Board, done: int) -> str:
        raise NotImplementedError

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        texts = assistant_texts(messages)
        board = board_of(replay(self.identity, texts).match.game_state)
        move = self.choose(board, len(texts))
        if wrong:  # any other move: the budget has none to spare
            move = next(m for m, _ in neighbours(board.index(0)) if m != move)
        return {"role": "assistant", "content": f"I slide [{move}]"}


class Staged(_Slider):
    """The staged solution of the task's board, move by move; from a board off it (after a wrong move), the
    staged solution of that board."""

    def choose(self, board: Board, done: int) -> str:
        start = board_of(replay(self.identity, []).match.game_state)
        plan = solution(start)
        walked = start
        for move in plan[:done]:
            walked = apply(walked, move)
        if walked == board and done < len(plan):
            return plan[done]
        return (solution(board) if solvable(board) else ("up",))[0] if board != GOAL else "up"


class Greedy(_Slider):
    """Baseline: the move that brings the tiles nearest home (summed Manhattan distance), ties at random."""

    def choose(self, board: Board, done: int) -> str:
        options = neighbours(board.index(0))
        return min(options, key=lambda o: (misplaced_distance(apply(board, o[0])), self.rng.random()))[0]


class RandomSlide(_Slider):
    """Baseline: a random legal move."""

    def choose(self, board: Board, done: int) -> str:
        return self.rng.choice(neighbours(board.index(0)))[0]


GAME = Game(
    name="fifteen_puzzle", env_id="FifteenPuzzle-v0", players=1,
    about="TextArena 15-puzzle: order the tiles within the moves a staged solver needs (60-100).",
    config=Config, draw=draw,
    groups=[Group("4x4", {"slack": 0})],
    policy=Staged,
    baselines=[Baseline("random", RandomSlide, "a random legal move"),
               Baseline("greedy", Greedy, "the move that brings the tiles nearest home")],
    answer_format="Reply with one move in square brackets: [up], [down], [left] or [right].",
    max_moves=140,
    conformance={"distinct_n": 200},  # the staged solution takes 0.1-0.2 s per board
)
