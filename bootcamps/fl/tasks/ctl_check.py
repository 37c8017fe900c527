"""fl/ctl_check: the states of a small Kripke structure where a CTL formula holds (the unique set, computed by the
fixpoint algorithms of CTL model checking)."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Task, numbers

ATOMS = ("p", "q")
UNARY = ("EX", "AX", "EF", "AF", "EG", "AG")
BINARY = ("EU", "AU")
Formula = list[Any]  # ["p"], ["not", f], ["and", f, g], ["or", f, g], [UNARY op, f], ["EU" | "AU", f, g]


def holds(f: Formula, succ: list[list[int]], labels: list[list[str]], strip: str = "") -> set[int]:
    """The states where `f` holds. `strip` is how a baseline misreads it: "temporal" drops every temporal operator
    (an until keeps its right side), "universal" reads every A as E."""
    states = set(range(len(succ)))
    op = f[0]

    def sub(i: int) -> set[int]:
        return holds(f[i], succ, labels, strip)

    if op in ATOMS:
        return {s for s in states if op in labels[s]}
    if op == "not":
        return states - sub(1)
    if op in ("and", "or"):
        a, b = sub(1), sub(2)
        return a & b if op == "and" else a | b
    if strip == "temporal":
        return sub(2) if op in BINARY else sub(1)
    if strip == "universal" and op[0] == "A":
        op = "E" + op[1:]

    def ex(z: set[int]) -> set[int]:
        return {s for s in states if any(t in z for t in succ[s])}

    def ax(z: set[int]) -> set[int]:
        return {s for s in states if all(t in z for t in succ[s])}

    if op in ("EX", "AX"):
        return (ex if op == "EX" else ax)(sub(1))
    if op in ("EF", "AF", "EU", "AU"):  # least fixpoint: Z = g | (f & pre(Z))
        left, goal = (states, sub(1)) if op in ("EF", "AF") else (sub(1), sub(2))
        pre = ex if op in ("EF", "EU") else ax
        z: set[int] = set()
        while True:
            new = goal | (left & pre(z))
            if new == z:
                return z
            z = new
    inner = sub(1)
    if op == "AG":  # AG f = NOT EF NOT f
        return states - holds(["EF", ["not", f[1]]], succ, labels, strip)
    z = set(inner)  # EG: greatest fixpoint Z = f & EX Z
    while True:
        new = inner & ex(z)
        if new == z:
            return z
        z = new


def formula_text(f: Formula, top: bool = True) -> str:
    op = f[0]
    if op in ATOMS:
        return op
    if op == "not":
        return "NOT " + formula_text(f[1], False)
    if op in ("and", "or"):
        inner = f"{formula_text(f[1], False)} {op.upper()} {formula_text(f[2], False)}"
        return inner if top else f"({inner})"
    if op in BINARY:
        return f"{op[0]}[{formula_text(f[1])} U {formula_text(f[2])}]"
    return f"{op} {formula_text(f[1], False)}"


def random_formula(rng: random.Random, depth: int) -> Formula:
    """A formula whose every path from the root meets `depth` operators before an atom (mostly temporal ones)."""
    if depth == 0:
        atom = [rng.choice(ATOMS)]
        return ["not", atom] if rng.random() < 0.25 else atom
    roll = rng.random()
    if roll < 0.55:
        return [rng.choice(UNARY), random_formula(rng, depth - 1)]
    op = rng.choice(BINARY) if roll < 0.8 else rng.choice(("and", "or"))
    left, right = random_formula(rng, depth - 1), random_formula(rng, rng.randrange(depth))
    return [op, left, right if right != left else ["not", right]]  # never "p U p"


def temporal_count(f: Formula) -> int:
    return (f[0] in UNARY or f[0] in BINARY) + sum(temporal_count(g) for g in f[1:] if isinstance(g, list))


class CtlCheck(Task):
    name = "ctl_check"
    title = "CTL model checking"
    knobs = {"states": Knob(11, 5, 24, "states s0..s(n-1) of the Kripke structure"),
             "depth": Knob(3, 1, 6, "nesting depth of the formula"),
             "temporal": Knob(2, 1, 8, "temporal operators in the formula (at least)")}
    groups = {"easy": {"states": 10, "depth": 2, "temporal": 2}, "medium": {"states": 12, "depth": 3, "temporal": 3},
              "hard": {"states": 15, "depth": 4, "temporal": 4}}
    answer_format = ("the numbers of the states where the formula holds, separated by spaces, e.g. "
                     "<answer>s0 s3 s4</answer> (or <answer>0 3 4</answer>; <answer>none</answer> for none).")
    baselines = {"label_only": "every temporal operator ignored (an until read as its right side)",
                 "universal_as_existential": "every A read as E (one path instead of all)",
                 "all_states": "every state"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        n = p.states
        succ = [sorted(rng.sample(range(n), rng.choice((1, 2, 2, 3)))) for _ in range(n)]
        labels = [[a for a in ATOMS if rng.random() < 0.45] for _ in range(n)]
        f = random_formula(rng, p.depth)
        if temporal_count(f) < p.temporal:
            return None
        answer = sorted(holds(f, succ, labels))
        if not 2 <= len(answer) <= n - 2:
            return None  # none, one, all or all but one: too easy to guess
        inst = {"successors": succ, "labels": labels, "formula": f, "solution": answer}
        return None if self.any_baseline_accepted(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(f"s{s}: labels {{{', '.join(inst['labels'][s])}}}, successors "
                         + ", ".join(f"s{t}" for t in targets) for s, targets in enumerate(inst["successors"]))
        return (f"A Kripke structure with states s0..s{len(inst['successors']) - 1} (every state has at least one "
                f"successor, so every path is infinite; an atom holds exactly in the states labelled with it):\n"
                f"{rows}\n\nCTL formula: {formula_text(inst['formula'])}\n\nEX/AX: in some/every successor; EF/AF: "
                "eventually on some/every path; EG/AG: always on some/every path; E[f U g]/A[f U g]: on some/every "
                "path g eventually holds and f holds at every state before it. Paths start at the state itself.\n"
                "In which states does the formula hold?")

    def show(self, answer: list[int]) -> str:
        return " ".join(f"s{s}" for s in answer) if answer else "none"

    def read(self, body: str) -> list[int] | None:
        return numbers(body.replace("s", " "))

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        n = len(inst["successors"])
        if len(set(answer)) < len(answer) or not all(0 <= s < n for s in answer):
            return f"state numbers must be distinct, from 0 to {n - 1}"
        truth = holds(inst["formula"], inst["successors"], inst["labels"])
        missing, extra = sorted(truth - set(answer)), sorted(set(answer) - truth)
        if missing:
            return f"the formula holds in s{missing[0]} too ({len(missing)} states missing)"
        if extra:
            return f"the formula does not hold in s{extra[0]}"
        return None

    def corrupt(self, inst: dict[str, Any], answer: list[int], rng: random.Random) -> list[int]:
        s = rng.randrange(len(inst["successors"]))  # one state's verdict flipped
        return sorted(set(answer) ^ {s})

    def baseline_label_only(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return sorted(holds(inst["formula"], inst["successors"], inst["labels"], strip="temporal"))

    def baseline_universal_as_existential(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return sorted(holds(inst["formula"], inst["successors"], inst["labels"], strip="universal"))

    def baseline_all_states(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return list(range(len(inst["successors"])))
