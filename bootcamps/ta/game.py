"""What the adapter needs to know of one TextArena game to offer it as `ta/<name>`: a `Game` declaration.

A game module (`games/<name>.py`) declares its TextArena id, its parameters as a Config dataclass, how a task's
keyword arguments are drawn, its groups, its reference policy and baselines, and for a two-player game the
scripted seat of single-model tasks and the seat policies of `bc-eval --opponent-model`.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bc_common.bootcamp import Baseline, Group

from .play import Opponent

__all__ = ["Drawn", "Game"]


@dataclass(frozen=True)
class Drawn:
    """What `Game.draw` returns when the task has a move budget of its own: TextArena's keyword arguments, and the
    moves the model may make (the adapter stops the game unfinished, a loss, when they are spent)."""

    kwargs: dict[str, Any]
    budget: int


@dataclass(frozen=True)
class Game:
    """One adapted TextArena game."""

    name: str  # ta/<name>
    env_id: str  # the registered TextArena id whose class (and defaults) every task uses
    players: int  # 1: an interaction bootcamp; 2: the model is Player 0 against `opponent`, and seats
    about: str  # one line for bc-gen --list
    config: type  # a dataclass of the game's parameters (validate() checks them)
    # (rng, config, seed) -> env kwargs, or Drawn(kwargs, budget); None: redraw
    draw: Callable[[random.Random, Any, int], dict[str, Any] | Drawn | None]
    groups: list[Group]
    policy: type
    baselines: list[Baseline]
    answer_format: str  # how to write a move, appended to the first view
    opponent: Opponent | None = None
    seat_policy: type | None = None  # reference of a seat in a match (identity has "seat": "Player 0" / "Player 1")
    seat_baselines: dict[str, type] = field(default_factory=dict)
    conformance: dict[str, Any] = field(default_factory=dict)
    max_moves: int = 30  # moves per seat: the harness's turn limit for the game
