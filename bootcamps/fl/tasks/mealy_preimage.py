"""fl/mealy_preimage: an input word on which a Mealy machine (a finite-state transducer) writes a given output (any
such input scores; the machine is run on it)."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Task, word

INPUTS = "abc"
OUTPUTS = "01"


def run(machine: list[list[list[Any]]], text: str) -> str:
    """The output for `text` from q0 (`machine[q][i]` = [next state, output letter] for input INPUTS[i])."""
    q, out = 0, []
    for ch in text:
        q, o = machine[q][INPUTS.index(ch)]
        out.append(o)
    return "".join(out)


def preimages(machine: list[list[list[Any]]], target: str) -> int:
    """How many input words give `target` (counted state by state along it)."""
    ways = {0: 1}
    for o in target:
        nxt: dict[int, int] = {}
        for q, k in ways.items():
            for r, out in machine[q]:
                if out == o:
                    nxt[r] = nxt.get(r, 0) + k
        ways = nxt
    return sum(ways.values())


class MealyPreimage(Task):
    name = "mealy_preimage"
    title = "Mealy machine preimage"
    knobs = {"states": Knob(5, 2, 10, "states q0..q(n-1)"), "length": Knob(10, 4, 20, "letters of the output"),
             "most": Knob(60, 1, 10_000, "input words giving the output, at most")}
    groups = {"easy": {"states": 4, "length": 8, "most": 40}, "medium": {"states": 5, "length": 10, "most": 60},
              "hard": {"states": 6, "length": 12, "most": 80}}
    answer_format = "the input word, letters a, b, c only, e.g. <answer>abcab</answer>."
    baselines = {"greedy": "at each step the first input letter that writes the next output letter (no look-ahead)",
                 "repeat": "the input letter that writes the first output letter, repeated",
                 "translate": "0 read as a, 1 as b"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        machine = [[[rng.randrange(p.states), rng.choice(OUTPUTS)] for _ in INPUTS] for _ in range(p.states)]
        text = "".join(rng.choice(INPUTS) for _ in range(p.length))
        target = run(machine, text)
        if preimages(machine, target) > p.most:
            return None  # so many inputs give it that little search is needed
        inst = {"machine": machine, "target": target, "solution": text}
        return None if self.any_baseline_accepted(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(f"q{q}: " + ", ".join(f"{ch} -> q{r} writing {o}" for ch, (r, o) in zip(INPUTS, row,
                                                                                                  strict=True))
                         for q, row in enumerate(inst["machine"]))
        return (f"A Mealy machine starts in state q0; on each input letter it moves and writes one output letter:\n"
                f"{rows}\n\nGive an input word on which it writes exactly {inst['target']} "
                f"({len(inst['target'])} letters).")

    def show(self, answer: str) -> str:
        return answer

    def read(self, body: str) -> str | None:
        return word(body.replace(" ", ""), INPUTS, limit=40)

    def check(self, inst: dict[str, Any], answer: str) -> str | None:
        if len(answer) != len(inst["target"]):
            return f"{len(answer)} letters; the output has {len(inst['target'])}"
        out = run(inst["machine"], answer)
        if out != inst["target"]:
            k = next(i for i, (x, y) in enumerate(zip(out, inst["target"], strict=True)) if x != y)
            return f"it writes {out}, which differs at letter {k + 1}"
        return None

    def corrupt(self, inst: dict[str, Any], answer: str, rng: random.Random) -> str:
        for k in rng.sample(range(len(answer)), len(answer)):  # one letter changed so that the output changes
            for ch in INPUTS:
                wrong = answer[:k] + ch + answer[k + 1:]
                if run(inst["machine"], wrong) != inst["target"]:
                    return wrong
        return answer[1:]

    def baseline_greedy(self, inst: dict[str, Any], rng: random.Random) -> str:
        q, out = 0, []
        for o in inst["target"]:
            i = next((i for i in range(len(INPUTS)) if inst["machine"][q][i][1] == o), None)
            if i is None:
                break
            out.append(INPUTS[i])
            q = inst["machine"][q][i][0]
        return "".join(out)

    def baseline_repeat(self, inst: dict[str, Any], rng: random.Random) -> str:
        i = next((i for i in range(len(INPUTS)) if inst["machine"][0][i][1] == inst["target"][0]), 0)
        return INPUTS[i] * len(inst["target"])

    def baseline_translate(self, inst: dict[str, Any], rng: random.Random) -> str:
        return inst["target"].replace("0", "a").replace("1", "b")
