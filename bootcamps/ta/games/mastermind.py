"""ta/mastermind: TextArena's Mastermind (a code of distinct digits, black and white pegs) with a turn budget the
reference needs.

TextArena's own variant (4 of 6 in 20 turns) lets blind guessing win 6% of games, and its 360 codes (1,680 for
4 of 8, 5,040 for 4 of 10) repeat across a few dozen tasks, so one fixed line of guesses solves two of them
(measured: 2 of 60 at 4 of 10); here the codes are 5 and 6 of 10 digits (30,240 and 151,200 codes) and the budget
is what playing the first code consistent with every answer needs (measured: at most 9 guesses on 150 sampled
codes of 5 of 10 and on 100 of 6 of 10; the budget adds one, and TextArena one more)."""
from __future__ import annotations

import functools
import itertools
import random
from dataclasses import dataclass
from typing import Any

from bc_common.bootcamp import Baseline, Group, ReferencePolicy, assistant_texts

from ..game import Game
from ..play import replay

BUDGET = {5: 10, 6: 10}  # code length -> TextArena's max_turns (the player gets one guess more)
DIGITS = 10


@dataclass
class Config:
    length: int = 5  # the code is `length` distinct digits from 1..10

    def validate(self) -> None:
        if self.length not in BUDGET:
            raise ValueError(f"length must be one of {sorted(BUDGET)}")


def draw(rng: random.Random, config: Config, seed: int) -> dict[str, Any]:
    return {"code_length": config.length, "num_numbers": DIGITS, "max_turns": BUDGET[config.length],
            "duplicate_numbers": False}


@functools.cache
def codes(length: int, digits: int) -> tuple[tuple[int, ...], ...]:
    return tuple(itertools.permutations(range(1, digits + 1), length))


def pegs(guess: tuple[int, ...], secret: tuple[int, ...]) -> tuple[int, int]:
    """(black, white) for distinct-digit codes."""
    black = sum(g == s for g, s in zip(guess, secret, strict=True))
    return black, len(set(guess) & set(secret)) - black


class _Codebreaker(ReferencePolicy):
    def choose(self, history: list[dict[str, Any]], game_state: dict[str, Any]) -> tuple[int, ...]:
        raise NotImplementedError

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        state = replay(self.identity, assistant_texts(messages)).match.game_state
        history = state["history"]
        if wrong:  # a legal guess that the answers so far already rule out: a wasted turn
            tried = {tuple(h["guess"]) for h in history}
            secret = tuple(state["secret_code"])
            guess = next(c for c in codes(state["code_length"], state["num_numbers"])
                         if c != secret and c not in tried and not consistent(c, history))
        else:
            guess = self.choose(history, state)
        return {"role": "assistant", "content": "[" + " ".join(map(str, guess)) + "]"}


def consistent(code: tuple[int, ...], history: list[dict[str, Any]]) -> bool:
    return all(pegs(tuple(h["guess"]), code) == (h["black"], h["white"]) for h in history)


@functools.lru_cache(maxsize=4096)
def candidates(length: int, digits: int, answers: tuple[tuple[tuple[int, ...], int, int], ...]) -> tuple:
    """The codes consistent with `answers` ((guess, black, white), ...), filtered from the previous answers'
    (cached: each turn of a game filters only what the turn before left)."""
    if not answers:
        return codes(length, digits)
    guess, black, white = answers[-1]
    return tuple(c for c in candidates(length, digits, answers[:-1]) if pegs(guess, c) == (black, white))


def answers_of(history: list[dict[str, Any]]) -> tuple[tuple[tuple[int, ...], int, int], ...]:
    return tuple((tuple(h["guess"]), h["black"], h["white"]) for h in history)


class FirstConsistent(_Codebreaker):
    """The first code (in order) that gives every earlier guess the pegs it got."""

    def choose(self, history: list[dict[str, Any]], game_state: dict[str, Any]) -> tuple[int, ...]:
        return candidates(game_state["code_length"], game_state["num_numbers"], answers_of(history))[0]


class RandomCode(_Codebreaker):
    """Baseline: a random untried code, ignoring the pegs."""

    def choose(self, history: list[dict[str, Any]], game_state: dict[str, Any]) -> tuple[int, ...]:
        tried = {tuple(h["guess"]) for h in history}
        while True:
            guess = tuple(self.rng.sample(range(1, game_state["num_numbers"] + 1), game_state["code_length"]))
            if guess not in tried:
                return guess


class Rotate(_Codebreaker):
    """Baseline: 1 2 3 4, 2 3 4 5, 3 4 5 6, ... (every digit tried in every place), ignoring the pegs."""

    def choose(self, history: list[dict[str, Any]], game_state: dict[str, Any]) -> tuple[int, ...]:
        digits, n = game_state["num_numbers"], len(history)
        return tuple((n + i) % digits + 1 for i in range(game_state["code_length"]))


GAME = Game(
    name="mastermind", env_id="Mastermind-v0", players=1,
    about="TextArena Mastermind: find a code of 5 or 6 distinct digits from black and white pegs, on a tight "
          "budget.",
    config=Config, draw=draw,
    groups=[Group("5of10", {"length": 5}, ratio=0.5), Group("6of10", {"length": 6}, ratio=0.5)],
    policy=FirstConsistent,
    baselines=[Baseline("random", RandomCode, "a random untried code, ignoring the pegs"),
               Baseline("rotate", Rotate, "1 2 3 4, 2 3 4 5, ... ignoring the pegs")],
    answer_format="Reply with your guess as space-separated digits in square brackets, e.g. [1 2 3 4 5].",
    max_moves=14,
    conformance={"prompt_space": {"5of10": 1, "6of10": 1}},  # one rules prompt per group; the code is hidden
)
