"""Exact forced-win search over OpenSpiel states: can the side to move force a win within d of its own moves,
however the other side answers? The generator proves a task's depth with it, the scripted defender answers with
it, and the policies choose with it, so none of them can disagree.

A move "wins within d" when the game is over after it with the mover ahead, or it is not over and every answer
leaves a win within d - 1 (a game that gives the mover another turn, as dots and boxes does, spends one of its
moves). Results are memoised per game by the position's text, which for the offered games is the whole state.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

MEMO_LIMIT = 400_000  # positions remembered per game before the memo starts afresh


class BudgetExceeded(Exception):
    """The search visited more positions than its budget allows (the generator then draws another position)."""


@dataclass
class Search:
    """Forced-win search for one game; `budget` bounds the positions one call may visit (None: unbounded)."""

    memo: dict[tuple[str, int, int], bool] = field(default_factory=dict)
    budget: int | None = None
    visited: int = 0

    def key(self, state: Any, me: int, d: int) -> tuple[str, int, int]:
        return (f"{state.current_player()}|{state}", me, d)

    def wins(self, state: Any, me: int, d: int) -> bool:
        """Whether player `me` can force a win from `state` within `d` more moves of its own."""
        if state.is_terminal():
            return state.returns()[me] > 0
        if d <= 0:
            return False
        key = self.key(state, me, d)
        found = self.memo.get(key)
        if found is not None:
            return found
        self.visited += 1
        if self.budget is not None and self.visited > self.budget:
            raise BudgetExceeded(self.visited)
        mine = state.current_player() == me
        result = not mine
        for action in state.legal_actions():
            child = state.child(action)
            if self.wins(child, me, d - 1 if mine else d) == mine:
                result = mine
                break
        if len(self.memo) >= MEMO_LIMIT:
            self.memo.clear()
        self.memo[key] = result
        return result

    def depth(self, state: Any, me: int, most: int) -> int | None:
        """The fewest moves of `me` that force a win from `state` (at most `most`), or None."""
        for d in range(1, most + 1):
            if self.wins(state, me, d):
                return d
        return None

    def winning_moves(self, state: Any, me: int, d: int) -> list[int]:
        """`me`'s moves from `state` (its turn) that keep a forced win within `d` moves, counting this one."""
        return [a for a in state.legal_actions() if self.wins(state.child(a), me, d - 1)]

    def defend(self, state: Any, me: int, d: int) -> int:
        """The defender's answer (its turn, `me` the attacker with `d` moves left): a move after which `me` has no
        forced win within d, if there is one (the lowest such action); else one of the moves that make `me` need
        the most moves (the longest resistance), chosen by a stream keyed by the game so far: the same answer in
        the same game every time, but no fixed reply a memorised sequence of moves could count on."""
        actions = state.legal_actions()
        best: list[int] = []
        best_need = -1
        for action in actions:
            child = state.child(action)
            if not self.wins(child, me, d):
                return action
            need = self.depth(child, me, d) or d
            if need > best_need:
                best, best_need = [action], need
            elif need == best_need:
                best.append(action)
        return best[0] if len(best) == 1 else random.Random(f"os-defender/{state.history()}").choice(best)


@dataclass(frozen=True)
class Odds:
    """The chance that a blind mover wins a proven position against the defender: `random` plays a uniformly
    random legal move, `greedy` a move that ends the game with a win when there is one, else a random move."""

    random: float
    greedy: float


def odds(search: Search, state: Any, me: int, d: int) -> Odds:
    """Exact `Odds` from `state` (`me` to move, a forced win within `d`). Only winning moves need exploring: once a
    mover has let the forced win go, the defender never lets it come back within the moves left."""
    if state.is_terminal():
        won = float(state.returns()[me] > 0)
        return Odds(won, won)
    if d <= 0:
        return Odds(0.0, 0.0)
    if state.current_player() != me:
        return odds(search, state.child(search.defend(state, me, d)), me, d)
    actions = state.legal_actions()
    immediate = any(state.child(a).is_terminal() and state.child(a).returns()[me] > 0 for a in actions)
    total_random = total_greedy = 0.0
    for action in search.winning_moves(state, me, d):
        sub = odds(search, state.child(action), me, d - 1)
        total_random += sub.random
        total_greedy += sub.greedy
    random_odds = total_random / len(actions)
    return Odds(random_odds, 1.0 if immediate else total_greedy / len(actions))


def first_legal_wins(search: Search, state: Any, me: int, d: int) -> bool:
    """Whether always playing the first legal move wins against the defender within `d` moves."""
    while not state.is_terminal():
        if state.current_player() == me:
            if d <= 0:
                return False
            state = state.child(state.legal_actions()[0])
            d -= 1
        else:
            state = state.child(search.defend(state, me, d))
    return state.returns()[me] > 0
