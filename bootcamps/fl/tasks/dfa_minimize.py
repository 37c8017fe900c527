"""fl/dfa_minimize: group the states of a DFA into classes of equivalent states (the states of its minimal DFA)."""
from __future__ import annotations

import random
import re
from typing import Any

from ..automata import Dfa, classes, random_dfa, table
from ..core import Knob, Task, numbers

ALPHABETS = {2: "ab", 3: "abc"}


def inflate(rng: random.Random, small: Dfa, extra: int) -> Dfa:
    """`small` with `extra` copies of its states: a copy keeps its original's transitions and acceptance, and some
    transitions into the original are redirected to it (the language stays the same)."""
    delta = [list(row) for row in small.delta]
    accepting = set(small.accepting)
    for _ in range(extra):
        original = rng.randrange(len(delta))
        copy = len(delta)
        delta.append(list(delta[original]))
        if original in accepting:
            accepting.add(copy)
        arrows = [(p, i) for p in range(len(delta)) for i in range(len(small.alphabet)) if delta[p][i] == original]
        for p, i in arrows:
            if rng.random() < 0.5:
                delta[p][i] = copy
    order = list(range(1, len(delta)))  # renumber, keeping the start state 0
    rng.shuffle(order)
    name = {0: 0, **{old: new for new, old in enumerate(order, start=1)}}
    new_delta = [[0] * len(small.alphabet) for _ in delta]
    for q, row in enumerate(delta):
        new_delta[name[q]] = [name[r] for r in row]
    return Dfa(small.alphabet, tuple(tuple(r) for r in new_delta), frozenset(name[q] for q in accepting))


def group_text(groups: list[list[int]]) -> str:
    return " ".join("{" + ", ".join(f"q{q}" for q in g) + "}" for g in groups)


class DfaMinimize(Task):
    name = "dfa_minimize"
    title = "DFA minimisation"
    knobs = {"states": Knob(6, 2, 20, "states of the minimal DFA"),
             "copies": Knob(4, 1, 20, "redundant states added to it"),
             "letters": Knob(2, 2, 3, "alphabet size")}
    groups = {"easy": {"states": 4, "copies": 3, "letters": 2}, "medium": {"states": 6, "copies": 4, "letters": 2},
              "hard": {"states": 8, "copies": 6, "letters": 3}}
    answer_format = ("every state in exactly one group, one pair of braces a group of equivalent states, e.g. "
                     "<answer>{q0, q3} {q1} {q2, q4, q5}</answer>.")
    baselines = {"singletons": "every state alone (the automaton is already minimal)",
                 "accept_split": "the accepting states in one group, the others in another"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        small = random_dfa(rng, p.states, ALPHABETS[p.letters])
        dfa = inflate(rng, small, p.copies)
        if len(dfa.reachable()) < dfa.size:
            return None  # every copy was left without an incoming transition
        groups = [sorted(g) for g in classes(dfa)]
        if len(groups) == dfa.size:
            return None
        inst = {"dfa": dfa.to_json(), "solution": groups}
        return None if self.any_baseline_accepted(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        dfa = Dfa.from_json(inst["dfa"])
        return (f"A deterministic finite automaton:\n{table(dfa)}\n\nTwo states are equivalent when the same words "
                "lead from each of them to acceptance. Group the states into classes of equivalent states (the "
                "states of the minimal automaton).")

    def show(self, answer: list[list[int]]) -> str:
        return group_text(answer)

    def read(self, body: str) -> list[list[int]] | None:
        found = re.findall(r"\{([^{}]*)\}", body)
        if not found or len(found) > 100 or re.sub(r"\{[^{}]*\}", "", body).strip(" \t\r\n,;"):
            return None
        out = [numbers(g.replace("q", " ")) for g in found]
        return None if any(g is None for g in out) else out  # type: ignore[return-value]

    def check(self, inst: dict[str, Any], answer: list[list[int]]) -> str | None:
        n = len(inst["dfa"]["delta"])
        states = [q for g in answer for q in g]
        if sorted(states) != list(range(n)):
            return f"every state q0..q{n - 1} must be in exactly one group"
        truth = {frozenset(g) for g in inst["solution"]}
        if {frozenset(g) for g in answer} != truth:
            return f"{len(answer)} groups; the states fall into {len(truth)} classes, not these"
        return None

    def corrupt(self, inst: dict[str, Any], answer: list[list[int]], rng: random.Random) -> list[list[int]]:
        groups = [list(g) for g in answer]
        big = [g for g in groups if len(g) > 1]
        if big:  # split one class in two
            g = rng.choice(big)
            groups.remove(g)
            return [*groups, g[:1], g[1:]]
        return groups

    def baseline_singletons(self, inst: dict[str, Any], rng: random.Random) -> list[list[int]]:
        return [[q] for q in range(len(inst["dfa"]["delta"]))]

    def baseline_accept_split(self, inst: dict[str, Any], rng: random.Random) -> list[list[int]]:
        acc = inst["dfa"]["accepting"]
        rest = [q for q in range(len(inst["dfa"]["delta"])) if q not in acc]
        return [g for g in (acc, rest) if g]
