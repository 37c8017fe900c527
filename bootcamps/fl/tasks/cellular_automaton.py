"""fl/cellular_automaton: the row of an elementary cellular automaton (a Wolfram rule on a ring of cells) after k
steps."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Task

RULES = (30, 45, 54, 57, 60, 73, 86, 89, 90, 101, 105, 106, 110, 120, 124, 135, 137, 149, 150, 169, 193, 225)


def step(cells: str, rule: int) -> str:
    n = len(cells)
    return "".join("1" if rule >> int(cells[i - 1] + cells[i] + cells[(i + 1) % n], 2) & 1 else "0"
                   for i in range(n))


def run(cells: str, rule: int, steps: int) -> str:
    for _ in range(steps):
        cells = step(cells, rule)
    return cells


class CellularAutomaton(Task):
    name = "cellular_automaton"
    title = "Elementary cellular automaton"
    knobs = {"width": Knob(16, 6, 60, "cells on the ring"), "steps": Knob(5, 2, 30, "steps to run")}
    groups = {"easy": {"width": 12, "steps": 3}, "medium": {"width": 16, "steps": 5},
              "hard": {"width": 20, "steps": 8}}
    answer_format = "the row after the last step as 0s and 1s, e.g. <answer>0110100101</answer>."
    baselines = {"copy": "the starting row unchanged", "one_step": "the row after a single step",
                 "one_short": "the row one step before the last"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        rule = rng.choice(RULES)
        start = "".join(rng.choice("01") for _ in range(p.width))
        inst = {"rule": rule, "start": start, "steps": p.steps, "solution": run(start, rule, p.steps)}
        if inst["solution"].count("1") in (0, p.width):
            return None
        return None if self.any_baseline_accepted(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        rule = inst["rule"]
        table = ", ".join(f"{k:03b} -> {rule >> k & 1}" for k in range(7, -1, -1))
        return (f"An elementary cellular automaton, rule {rule}: the cells form a ring (the first cell's left "
                f"neighbour is the last cell, the last cell's right neighbour the first). At each step every cell "
                f"becomes, at the same time, the value this table gives for (left neighbour, itself, right "
                f"neighbour):\n{table}\n\nStarting row ({len(inst['start'])} cells): {inst['start']}\n\nWhat is "
                f"the row after {inst['steps']} steps?")

    def show(self, answer: str) -> str:
        return answer

    def read(self, body: str) -> str | None:
        text = "".join(body.split())
        return text if len(text) <= 200 and set(text) <= {"0", "1"} else None

    def check(self, inst: dict[str, Any], answer: str) -> str | None:
        if len(answer) != len(inst["start"]):
            return f"{len(answer)} cells; the ring has {len(inst['start'])}"
        wrong = sum(a != b for a, b in zip(answer, inst["solution"], strict=True))
        return f"{wrong} cells differ from the row after {inst['steps']} steps" if wrong else None

    def corrupt(self, inst: dict[str, Any], answer: str, rng: random.Random) -> str:
        k = rng.randrange(len(answer))
        return answer[:k] + ("1" if answer[k] == "0" else "0") + answer[k + 1:]

    def baseline_copy(self, inst: dict[str, Any], rng: random.Random) -> str:
        return inst["start"]

    def baseline_one_step(self, inst: dict[str, Any], rng: random.Random) -> str:
        return step(inst["start"], inst["rule"])

    def baseline_one_short(self, inst: dict[str, Any], rng: random.Random) -> str:
        return run(inst["start"], inst["rule"], inst["steps"] - 1)
