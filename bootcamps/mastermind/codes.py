"""Mastermind codes, peg feedback, and the replay of a game that the verifier and the interaction share.

A code is a string of `pegs` colour letters (repeats allowed) from the task's colours, a subset of PALETTE.
Feedback is (black, white): black pegs for right colour in the right place, white for right colour elsewhere.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bc_common.bootcamp import assistant_texts

PALETTE = {"R": "red", "G": "green", "B": "blue", "Y": "yellow", "O": "orange", "P": "purple", "W": "white",
           "K": "black", "C": "cyan", "M": "magenta"}
_GUESS = re.compile(r"<guess>([^<]{0,64})</guess>")  # bounded: linear on hostile text


def feedback(secret: str, guess: str) -> tuple[int, int]:
    """(black, white) pegs for `guess` against `secret` (equal lengths)."""
    black = sum(s == g for s, g in zip(secret, guess, strict=True))
    common = sum(min(secret.count(c), guess.count(c)) for c in set(guess))
    return black, common - black


def is_code(text: str, pegs: int, colours: str) -> bool:
    return len(text) == pegs and all(c in colours for c in text)


def guess_in(text: str) -> str | None:
    """The guess a reply makes: its last `<guess>...</guess>`, upper-cased, spaces and commas dropped; None when
    the reply has no guess tag."""
    found = _GUESS.findall(text or "")
    if not found:
        return None
    return re.sub(r"[\s,]", "", found[-1]).upper()


def guesses_in(replies: Iterable[str]) -> list[str | None]:
    """One guess per reply, in order (None for a reply without a guess tag)."""
    return [guess_in(t) if isinstance(t, str) else None for t in replies]


@dataclass
class Game:
    """A game replayed from the assistant's replies: one reply is one guess (a reply without a valid code is a
    wasted guess). `solved_at` is the 1-based guess that hit the secret, None when none did within `budget`."""

    guesses: list[str | None]
    marks: list[tuple[int, int] | None]
    solved_at: int | None
    over: bool


def replay(identity: dict, attempts: Iterable[str | None]) -> Game:
    """Play one guess per reply (`guesses_in`), in order, against the identity's secret; stops at the solving
    guess or when the budget is spent. A guess that is not a code of the task is a wasted guess."""
    secret, pegs, colours = identity["secret"], identity["pegs"], identity["colours"]
    guesses: list[str | None] = []
    marks: list[tuple[int, int] | None] = []
    for guess in attempts:
        if len(guesses) >= identity["budget"]:
            break
        if not isinstance(guess, str) or not is_code(guess, pegs, colours):
            guesses.append(None)
            marks.append(None)
            continue
        guesses.append(guess)
        marks.append(feedback(secret, guess))
        if guess == secret:
            return Game(guesses, marks, len(guesses), True)
    return Game(guesses, marks, None, len(guesses) >= identity["budget"])


def score_for(identity: dict, solved_at: int | None) -> float:
    """1.0 when solved within `par` guesses (the worst case of Knuth's strategy); then linearly less per extra
    guess, down to 1 / (budget - par + 1) at the last allowed guess; 0 when unsolved."""
    if solved_at is None:
        return 0.0
    par, budget = identity["par"], identity["budget"]
    if solved_at <= par:
        return 1.0
    return (budget - solved_at + 1) / (budget - par + 1)


def guesses_per_par(trajectory: dict[str, Any]) -> float:
    """The effort a game took: guesses played over par (the allowance for full credit)."""
    identity = trajectory["input"]["reward_model"]["ground_truth"]
    game = replay(identity, guesses_in(assistant_texts(trajectory["messages"])))
    return len(game.guesses) / identity["par"]
