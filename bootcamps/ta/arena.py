"""TextArena games run the harness's way: made from a task's identity, stepped with assistant texts, replayed
from scratch whenever asked, and never touching the process's global random state.

TextArena draws from the `random` module (`State.__init__` calls `random.seed(seed)`), which every other game of
an async run shares. `Match` keeps its own copy of that state and swaps it in only while TextArena runs, with no
await in between: the same identity and texts give the same game, however runs interleave.
"""
from __future__ import annotations

import contextlib
import io
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import textarena as ta
from textarena.envs.registration import ENV_REGISTRY

MAX_ACTION_CHARS = 2000  # an action is the first 2000 characters of a reply: TextArena's regexes read it whole
GAME_ID = ta.GAME_ID


@contextlib.contextmanager
def own_random(state: Any) -> Iterator[list[Any]]:
    """Run with `random`'s global state set to `state`; the state afterwards is in the yielded box's [0] and the
    caller's global state is back as it was."""
    outer = random.getstate()
    box = [state]
    try:
        if state is not None:
            random.setstate(state)
        # some games print progress (RushHour: "Generated puzzle in 3 attempts"): stdout carries only records
        with contextlib.redirect_stdout(io.StringIO()):
            yield box
    finally:
        box[0] = random.getstate()
        random.setstate(outer)


def make_env(env_id: str, kwargs: dict[str, Any]) -> Any:
    """The raw TextArena environment `env_id` (no wrappers: the harness renders observations itself) with the
    registered keyword arguments overridden by `kwargs`."""
    spec = ENV_REGISTRY[env_id]
    module_path, class_name = spec.entry_point.split(":")
    module = __import__(module_path, fromlist=[class_name])
    return getattr(module, class_name)(**{**spec.kwargs, **kwargs})


def render(observations: list[tuple[int, str, Any]], player: int, names: dict[int, str]) -> str:
    """Observations as the lines a player reads (`[GAME] ...`, `[Player 1] ...`); the player's own actions,
    echoed back by TextArena, are left out (the conversation already has them)."""
    lines = []
    for sender, message, kind in observations:
        if sender == player and kind == ta.ObservationType.PLAYER_ACTION:
            continue
        who = "GAME" if sender == GAME_ID else names.get(sender, f"Player {sender}")
        lines.append(f"[{who}] {str(message).strip()}")
    return "\n".join(lines)


# env_id -> (env, the exception its step raised) -> True when the adapter finished the step TextArena could not:
# a known bug of the installed TextArena, worked around by the game module that registers it (e.g. FifteenPuzzle
# calls a method its state class lacks on the winning move: bootcamps/ta/games/fifteen_puzzle.py)
LIBRARY_BUGS: dict[str, Callable[[Any, BaseException], bool]] = {}


@dataclass
class Outcome:
    """How a finished game went for one player: TextArena's reward and reason, and our result."""

    result: str  # "win", "draw" or "loss"
    reward: float  # TextArena's own reward for the player (its partial credit included)
    reason: str


class Match:
    """One TextArena game for `players` players, made from (env_id, kwargs, seed); `step(text)` plays the
    current player's reply, `pending(player)` is what that player has not read yet."""

    def __init__(self, env_id: str, kwargs: dict[str, Any], seed: int, players: int):
        self.env_id = env_id
        self.players = players
        # the game's own stream from the start: a constructor that draws before reset() draws from it too
        with own_random(random.Random(seed).getstate()) as box:
            self.env = make_env(env_id, kwargs)
            self.env.reset(num_players=players, seed=seed)
        self.random = box[0]
        self.unread: dict[int, list[tuple[int, str, Any]]] = {p: [] for p in range(players)}
        self.moves = 0
        self._collect()

    @property
    def state(self) -> Any:
        return self.env.state

    @property
    def game_state(self) -> dict[str, Any]:
        return self.env.state.game_state

    @property
    def done(self) -> bool:
        return bool(self.env.state.done)

    @property
    def current(self) -> int:
        return int(self.env.state.current_player_id)

    def _collect(self) -> None:
        # TextArena hands out a player's observations only when asked; take everyone's as they arrive
        for player, queue in self.env.state.observations.items():
            if queue:
                self.unread.setdefault(player, []).extend(queue)
                self.env.state.observations[player] = []

    def step(self, text: str) -> None:
        """The current player's reply, as TextArena's action."""
        try:
            with own_random(self.random) as box:
                self.env.step(action=(text or "")[:MAX_ACTION_CHARS])
        except Exception as exc:
            self.random = box[0]
            fix = LIBRARY_BUGS.get(self.env_id)
            if fix is None or not fix(self.env, exc):
                raise
        else:
            self.random = box[0]
        self.moves += 1
        self._collect()

    def pending(self, player: int) -> str:
        """What `player` has not read yet, rendered; reading it empties the queue."""
        names = {p: n for p, n in self.env.state.role_mapping.items() if p != GAME_ID}
        text = render(self.unread.get(player, []), player, names)
        self.unread[player] = []
        return text

    def outcome(self, player: int) -> Outcome:
        """`player`'s outcome of the finished game: a win is a reward of 1 (single-player: TextArena's full
        reward), a draw 0 in a two-player game; an unfinished game is a loss."""
        rewards = self.env.state.rewards or {}
        reward = float(rewards.get(player, -1.0)) if self.done else -1.0
        info = self.env.state.game_info.get(player, {}) if self.done else {}
        reason = str(info.get("reason") or ("" if self.done else "unfinished"))
        if not self.done:
            return Outcome("loss", reward, reason)
        if self.players == 1:
            return Outcome("win" if reward >= 1.0 else "loss", reward, reason)
        others = [float(rewards.get(p, 0.0)) for p in range(self.players) if p != player]
        if reward > max(others):
            return Outcome("win", reward, reason)
        return Outcome("draw" if reward == max(others) else "loss", reward, reason)
