"""fl/tag_system: run a Post 2-tag system for a number of steps (read the first letter, delete the first two, append
that letter's word); the answer is the word then (unique; checked by running the system)."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Task, word

LETTERS = "abc"
MAX_WORD = 60  # letters a drawn run may reach
MIN_END = 6  # letters of the word at the end, at least: shorter ones repeat across instances


def run(rules: dict[str, str], start: str, steps: int) -> str | None:
    """The word after `steps` steps; None when it halts (fewer than two letters) or grows past MAX_WORD first."""
    w = start
    for _ in range(steps):
        if len(w) < 2 or len(w) > MAX_WORD:
            return None
        w = w[2:] + rules[w[0]]
    return w if 2 <= len(w) <= MAX_WORD else None


class TagSystem(Task):
    name = "tag_system"
    title = "Post tag system"
    knobs = {"start": Knob(6, 3, 12, "letters of the start word"), "steps": Knob(12, 2, 40, "steps to run")}
    groups = {"easy": {"start": 5, "steps": 6}, "medium": {"start": 6, "steps": 12}, "hard": {"start": 7, "steps": 20}}
    answer_format = "the word, letters only, e.g. <answer>bcaab</answer>."
    baselines = {"start": "the start word", "one_step": "the word after one step",
                 "one_short": "the word one step before the end"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        rules = {ch: "".join(rng.choice(LETTERS) for _ in range(rng.randint(1, 3))) for ch in LETTERS}
        start = "".join(rng.choice(LETTERS) for _ in range(p.start))
        end = run(rules, start, p.steps)
        if end is None or len(end) < MIN_END or len(set(end)) < 2:
            return None  # halted, grew too long, or ended too short or too plain to be told apart
        inst = {"rules": rules, "start": start, "steps": p.steps, "solution": end}
        return None if self.any_baseline_accepted(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        rules = "\n".join(f"{ch} -> {inst['rules'][ch]}" for ch in LETTERS)
        return (f"A 2-tag system over the letters a, b, c. One step reads the first letter of the word, deletes the "
                f"first two letters and appends the word that the first letter names:\n{rules}\n\nStart word: "
                f"{inst['start']}\nWhat is the word after exactly {inst['steps']} steps?")

    def show(self, answer: str) -> str:
        return answer

    def read(self, body: str) -> str | None:
        return word(body.replace(" ", ""), LETTERS, limit=MAX_WORD + 10)

    def check(self, inst: dict[str, Any], answer: str) -> str | None:
        end = run(inst["rules"], inst["start"], inst["steps"])
        if answer == end:
            return None
        if len(answer) != len(end or ""):
            return f"{len(answer)} letters; after {inst['steps']} steps the word has {len(end or '')}"
        return "the word after those steps differs"

    def corrupt(self, inst: dict[str, Any], answer: str, rng: random.Random) -> str:
        k = rng.randrange(len(answer))  # one letter changed
        return answer[:k] + rng.choice([ch for ch in LETTERS if ch != answer[k]]) + answer[k + 1:]

    def baseline_start(self, inst: dict[str, Any], rng: random.Random) -> str:
        return inst["start"]

    def baseline_one_step(self, inst: dict[str, Any], rng: random.Random) -> str | None:
        return run(inst["rules"], inst["start"], 1)

    def baseline_one_short(self, inst: dict[str, Any], rng: random.Random) -> str | None:
        return run(inst["rules"], inst["start"], inst["steps"] - 1)
