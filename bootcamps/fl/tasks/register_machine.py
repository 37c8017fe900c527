"""fl/register_machine: run a Minsky register machine (INC and DEC-or-jump on counters) until it halts; the answer is
the registers at the halt and the number of instructions executed (unique; checked by running the program)."""
from __future__ import annotations

import random
import re
from typing import Any

from ..core import Knob, Task

REGISTERS = ("r1", "r2", "r3")
MAX_STEPS = 400  # a drawn program that runs longer is drawn again
_ANSWER = re.compile(r"r1\s*=\s*(\d{1,6})[\s,;]+r2\s*=\s*(\d{1,6})[\s,;]+r3\s*=\s*(\d{1,6})[\s,;]+steps\s*=\s*(\d{1,6})")

# a program line: ["inc", register, next] or ["dec", register, next if it was positive, next if it was zero]
# or ["halt"]; registers and lines count from 0 inside, from 1 in the text


def run(program: list[list[Any]], registers: list[int], limit: int) -> tuple[list[int], int] | None:
    """(registers at the halt, instructions executed, the halt not counted); None when it runs past `limit`."""
    regs, line, steps = list(registers), 0, 0
    while program[line][0] != "halt":
        if steps == limit:
            return None
        op = program[line]
        if op[0] == "inc":
            regs[op[1]] += 1
            line = op[2]
        elif regs[op[1]] > 0:
            regs[op[1]] -= 1
            line = op[2]
        else:
            line = op[3]
        steps += 1
    return regs, steps


def line_text(k: int, op: list[Any]) -> str:
    if op[0] == "halt":
        return f"{k + 1}: HALT"
    if op[0] == "inc":
        return f"{k + 1}: INC {REGISTERS[op[1]]}, go to {op[2] + 1}"
    return f"{k + 1}: DEC {REGISTERS[op[1]]}, go to {op[2] + 1}; if {REGISTERS[op[1]]} is 0, go to {op[3] + 1} instead"


class RegisterMachine(Task):
    name = "register_machine"
    title = "Register machine"
    knobs = {"loops": Knob(3, 1, 6, "loops of the program (each: DEC a register, INC others, repeat)"),
             "min_steps": Knob(40, 5, 300, "the program runs at least this many instructions"),
             "max_steps": Knob(120, 10, MAX_STEPS, "and at most this many")}
    groups = {"easy": {"loops": 2, "min_steps": 15, "max_steps": 60},
              "medium": {"loops": 3, "min_steps": 40, "max_steps": 150},
              "hard": {"loops": 4, "min_steps": 80, "max_steps": 300}}
    answer_format = ("the registers at the halt and the number of instructions executed (HALT not counted), e.g. "
                     "<answer>r1=3, r2=0, r3=7, steps=25</answer>.")
    baselines = {"start": "the starting registers, no step", "one_pass": "every line run once, top to bottom",
                 "drain": "every DEC register emptied into the INC registers, the step count of one pass"}

    def validate(self, p: Any) -> None:
        if p.min_steps >= p.max_steps:
            raise ValueError("min_steps must be below max_steps")

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        # loops in sequence: "while x > 0: x -= 1, then INC each of 1-3 other registers", then HALT
        program: list[list[Any]] = []
        for _ in range(p.loops):
            x, head = rng.randrange(len(REGISTERS)), len(program)
            body = [rng.choice([r for r in range(len(REGISTERS)) if r != x]) for _ in range(rng.randint(1, 3))]
            program.append(["dec", x, head + 1, None])  # where a zero register goes: the next loop, set below
            for k, r in enumerate(body):
                program.append(["inc", r, head + 2 + k if k + 1 < len(body) else head])
            program[head][3] = len(program)
        program.append(["halt"])
        order = [0, *rng.sample(range(1, len(program)), len(program) - 1)]  # lines shuffled, line 1 first
        place = {old: new for new, old in enumerate(order)}
        shuffled = [[op[0], *([op[1]] if len(op) > 1 else []), *(place[t] for t in op[2:])] for op in
                    (program[old] for old in order)]
        start = [rng.randint(1, 6) for _ in REGISTERS]
        result = run(shuffled, start, p.max_steps)
        if result is None or result[1] < p.min_steps:
            return None
        inst = {"program": shuffled, "start": start, "solution": [*result[0], result[1]]}
        return None if self.any_baseline_accepted(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        lines = "\n".join(line_text(k, op) for k, op in enumerate(inst["program"]))
        regs = ", ".join(f"{name}={v}" for name, v in zip(REGISTERS, inst["start"], strict=True))
        return (f"A register machine with counters r1, r2, r3 (whole numbers, never negative) runs this program from "
                f"line 1:\n{lines}\n\nINC adds 1 to the register; DEC subtracts 1 when the register is positive and "
                f"goes to the first line named, and leaves a register at 0 unchanged and goes to the second. It starts "
                f"with {regs}. What are the registers when it reaches HALT, and how many instructions (INC and DEC) "
                "has it executed?")

    def show(self, answer: list[int]) -> str:
        return ", ".join(f"{name}={v}" for name, v in zip(REGISTERS, answer, strict=False)) + f", steps={answer[3]}"

    def read(self, body: str) -> list[int] | None:
        found = _ANSWER.fullmatch(body.strip().lower())
        return [int(x) for x in found.groups()] if found else None

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        result = run(inst["program"], inst["start"], MAX_STEPS)
        if result is None:
            return "the program does not halt within the step limit"  # never for a drawn instance
        regs, steps = result
        if answer[:3] != regs:
            wrong = next(k for k in range(3) if answer[k] != regs[k])
            return f"{REGISTERS[wrong]} is {answer[wrong]}; at the halt it is not"
        if answer[3] != steps:
            return f"{answer[3]} steps; the program executes another number"
        return None

    def corrupt(self, inst: dict[str, Any], answer: list[int], rng: random.Random) -> list[int]:
        wrong = list(answer)
        k = rng.randrange(4)  # one register, or the step count, off by one
        wrong[k] += 1 if wrong[k] == 0 or rng.random() < 0.5 else -1
        return wrong

    def baseline_start(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return [*inst["start"], 0]

    def baseline_one_pass(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        regs = list(inst["start"])
        for op in inst["program"]:
            if op[0] == "inc":
                regs[op[1]] += 1
            elif op[0] == "dec" and regs[op[1]] > 0:
                regs[op[1]] -= 1
        return [*regs, len(inst["program"]) - 1]

    def baseline_drain(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        regs = list(inst["start"])
        dec = {op[1] for op in inst["program"] if op[0] == "dec"}
        inc = [op[1] for op in inst["program"] if op[0] == "inc" and op[1] not in dec]
        moved = sum(regs[r] for r in dec)
        for r in dec:
            regs[r] = 0
        if inc:
            regs[inc[0]] += moved
        return [*regs, len(inst["program"]) - 1]
