"""Drawing a task's position: seeded random play from the start, kept when the side to move has a forced win in
exactly the group's depth that blind play rarely finds. One search per game is shared by the process."""
from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from typing import Any

from .games import ODDS_LIMIT, Board, load
from .search import BudgetExceeded, Search, first_legal_wins, odds


@dataclass(frozen=True)
class Position:
    """A kept position: the actions from the start, the side to move, and what the proof measured."""

    history: list[int]
    player: int
    winning: list[int]  # the side to move's first moves that keep the forced win
    random_odds: float
    greedy_odds: float


@functools.cache
def search_for(spec: str) -> Search:
    """The process's search of one game (its memo is shared by generator, defender and policies)."""
    return Search()


def state_of(spec: str, history: list[int]) -> Any:
    """The state after `history` from the start of `spec`; ValueError naming the first illegal action."""
    state = load(spec).new_initial_state()
    for i, action in enumerate(history):
        if state.is_terminal() or state.is_chance_node() or action not in state.legal_actions():
            raise ValueError(f"history[{i}]: action {action} is not legal in {spec} after {history[:i]}")
        state.apply_action(action)
    return state


def draw(rng: random.Random, board: Board) -> Position | None:
    """One random game from the start; every position of it from `board.plies[0]` moves on (up to
    `board.plies[1]`) is tried in turn, and the first kept one is returned (None when none is)."""
    state = load(board.spec).new_initial_state()
    history: list[int] = []
    lowest, highest = board.plies
    while len(history) <= highest and not state.is_terminal():
        if len(history) >= lowest:
            kept = examine(state, history, board)
            if kept is not None:
                return kept
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        history.append(action)
    return None


def examine(state: Any, history: list[int], board: Board) -> Position | None:
    """`state` as a task of `board`, or None: no forced win in exactly `board.depth` moves, blind play too likely
    to find it, or a proof over the budget."""
    me = state.current_player()
    search = search_for(board.spec)
    search.budget, search.visited = board.budget, 0
    try:
        if not search.wins(state, me, board.depth) or search.wins(state, me, board.depth - 1):
            return None
        winning = search.winning_moves(state, me, board.depth)
        if len(winning) != 1:
            return None  # a puzzle with one solution: a constant first move wins only where it is that one
        chances = odds(search, state, me, board.depth)
        if chances.random > ODDS_LIMIT or (board.greedy and chances.greedy > ODDS_LIMIT):
            return None
        if first_legal_wins(search, state, me, board.depth):
            return None
    except BudgetExceeded:
        return None
    finally:
        search.budget = None
    return Position(list(history), me, winning, chances.random, chances.greedy)
