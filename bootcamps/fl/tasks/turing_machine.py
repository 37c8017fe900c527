"""fl/turing_machine: the tape, state and head of a Turing machine (two symbols, a ring-shaped tape) after N
steps."""
from __future__ import annotations

import random
import re
from typing import Any

from ..core import Knob, Task

STATES = "ABCDEF"
_ANSWER = re.compile(r"\s*([01]{1,100})\s*[,;]?\s*(?:state\s*)?([A-F])\s*[,;]?\s*(?:head\s*)?([0-9]{1,3})\s*")


def run(rules: dict[str, list[list[Any]]], tape: str, steps: int) -> tuple[str, str, int]:
    """(tape, state, head) after `steps` steps from state A with the head on cell 0; the tape is a ring."""
    cells, state, head = list(tape), "A", 0
    for _ in range(steps):
        write, move, nxt = rules[state][int(cells[head])]
        cells[head] = str(write)
        head = (head + (1 if move == "R" else -1)) % len(cells)
        state = nxt
    return "".join(cells), state, head


class TuringMachine(Task):
    name = "turing_machine"
    title = "Turing machine run"
    knobs = {"states": Knob(3, 2, 6, "machine states A, B, ..."), "width": Knob(10, 4, 40, "tape cells (a ring)"),
             "steps": Knob(12, 3, 80, "steps to run")}
    groups = {"easy": {"states": 2, "width": 8, "steps": 8}, "medium": {"states": 3, "width": 10, "steps": 14},
              "hard": {"states": 4, "width": 12, "steps": 22}}
    answer_format = ("the tape as 0s and 1s from cell 0 on, then the state, then the head's cell, e.g. "
                     "<answer>0110010111 C 4</answer>.")
    baselines = {"copy": "the starting tape, state A, head on cell 0",
                 "one_step": "the configuration after a single step"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        names = STATES[:p.states]
        rules = {s: [[rng.randrange(2), rng.choice("LR"), rng.choice(names)] for _ in range(2)] for s in names}
        tape = "".join(rng.choice("01") for _ in range(p.width))
        final = run(rules, tape, p.steps)
        inst = {"rules": rules, "tape": tape, "steps": p.steps, "solution": list(final)}
        return None if self.any_baseline_accepted(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        lines = [f"In state {s} reading {sym}: write {w}, move {'right' if m == 'R' else 'left'}, go to state {n}."
                 for s, pair in inst["rules"].items() for sym, (w, m, n) in enumerate(pair)]
        width = len(inst["tape"])
        return (f"A Turing machine with states {', '.join(inst['rules'])} and symbols 0 and 1:\n"
                + "\n".join(lines)
                + f"\n\nIts tape has {width} cells numbered 0 to {width - 1} arranged in a ring (moving right from "
                  f"cell {width - 1} reaches cell 0, moving left from cell 0 reaches cell {width - 1}). It starts in "
                  f"state A with the head on cell 0 and the tape {inst['tape']} (cell 0 first). It never halts.\n\n"
                  f"What are the tape, the state and the head's cell after exactly {inst['steps']} steps?")

    def show(self, answer: list[Any]) -> str:
        return f"{answer[0]} {answer[1]} {answer[2]}"

    def read(self, body: str) -> list[Any] | None:
        found = _ANSWER.fullmatch(body)
        return [found[1], found[2], int(found[3])] if found else None

    def check(self, inst: dict[str, Any], answer: list[Any]) -> str | None:
        tape, state, head = inst["solution"]
        if answer[0] != tape:
            return "the tape is not the machine's"
        if answer[1] != state or answer[2] != head:
            return "the tape is right, the state or head is not"
        return None

    def corrupt(self, inst: dict[str, Any], answer: list[Any], rng: random.Random) -> list[Any]:
        k = rng.randrange(len(answer[0]))
        return [answer[0][:k] + ("1" if answer[0][k] == "0" else "0") + answer[0][k + 1:], answer[1], answer[2]]

    def baseline_copy(self, inst: dict[str, Any], rng: random.Random) -> list[Any]:
        return [inst["tape"], "A", 0]

    def baseline_one_step(self, inst: dict[str, Any], rng: random.Random) -> list[Any]:
        return list(run(inst["rules"], inst["tape"], 1))
