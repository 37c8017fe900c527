"""fl/nfa_determinize: a deterministic automaton with as few states as possible for the language of a nondeterministic
one (any DFA within the minimal size scores; checked for equivalence on the product with the subset construction)."""
from __future__ import annotations

import random
import re
from collections import deque
from typing import Any

from ..automata import Dfa, classes, shortest_difference
from ..core import Knob, Task

LETTERS = "ab"
NAMES = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
SPREAD = 4  # the minimal DFA has at most min_dfa + SPREAD states
_STATE = re.compile(r"\s*([A-Za-z0-9_]{1,8})\s*:(.*)", re.DOTALL)
_MOVE = re.compile(r"([a-z])\s*->\s*([A-Za-z0-9_]{1,8})")
MAX_STATES = 40  # states of an answer


def subset_dfa(nfa: dict[str, Any]) -> Dfa:
    """The subset construction from {q0}, complete (the empty set is a state when some move leads nowhere)."""
    start = frozenset({0})
    index, order, todo = {start: 0}, [start], deque([start])
    rows: list[list[int]] = []
    while todo:
        s = todo.popleft()
        row = []
        for i in range(len(LETTERS)):
            t = frozenset(r for q in s for r in nfa["delta"][q][i])
            if t not in index:
                index[t] = len(order)
                order.append(t)
                todo.append(t)
            row.append(index[t])
        rows.append(row)
    accepting = frozenset(k for k, s in enumerate(order) if s & set(nfa["accepting"]))
    return Dfa(LETTERS, tuple(tuple(r) for r in rows), accepting)


def minimal(dfa: Dfa) -> tuple[list[list[Any]], int]:
    """The minimal DFA without its dead state (a partial DFA: a missing move rejects), states renamed in
    breadth-first order: ([[name, {letter: target name}, accepting], ...], its number of states)."""
    groups = classes(dfa)
    block = {q: k for k, g in enumerate(groups) for q in g}
    live = {k for k, g in enumerate(groups) if _reaches_accepting(dfa, min(g))}
    order, seen, todo = [block[0]], {block[0]}, deque([block[0]])
    while todo:
        k = todo.popleft()
        for i in range(len(LETTERS)):
            r = block[dfa.delta[min(groups[k])][i]]
            if r in live and r not in seen:
                seen.add(r)
                order.append(r)
                todo.append(r)
    name = {k: NAMES[j] if j < len(NAMES) else f"Z{j}" for j, k in enumerate(order)}
    states = []
    for k in order:
        q = min(groups[k])
        moves = {ch: name[block[dfa.delta[q][i]]] for i, ch in enumerate(LETTERS) if block[dfa.delta[q][i]] in live}
        states.append([name[k], moves, q in dfa.accepting])
    return states, len(states)


def _reaches_accepting(dfa: Dfa, q: int) -> bool:
    seen, todo = {q}, [q]
    while todo:
        p = todo.pop()
        if p in dfa.accepting:
            return True
        for r in dfa.delta[p]:
            if r not in seen:
                seen.add(r)
                todo.append(r)
    return False


def as_dfa(states: list[list[Any]]) -> Dfa:
    """A partial DFA (the first state starts) made complete with a dead state."""
    index = {s[0]: k for k, s in enumerate(states)}
    dead = len(states)
    rows = [[index.get(s[1].get(ch, ""), dead) for ch in LETTERS] for s in states] + [[dead] * len(LETTERS)]
    return Dfa(LETTERS, tuple(tuple(r) for r in rows), frozenset(k for k, s in enumerate(states) if s[2]))


class NfaDeterminize(Task):
    name = "nfa_determinize"
    title = "NFA to minimal DFA"
    knobs = {"states": Knob(5, 3, 8, "states of the NFA"), "min_dfa": Knob(4, 2, 10, "states of the minimal DFA "
                                                                              "(no dead state), at least")}
    groups = {"easy": {"states": 4, "min_dfa": 3}, "medium": {"states": 5, "min_dfa": 4},
              "hard": {"states": 6, "min_dfa": 5}}
    answer_format = ("the DFA, one state per segment separated by ';', the start state first: its name, a colon, its "
                     "moves and 'accept' if it accepts, e.g. <answer>A: a->B, b->A; B: a->B, b->C, accept; C: b->A"
                     "</answer> (a missing move rejects the word).")
    baselines = {"subset": "the subset construction, not minimised", "first_choice": "the NFA with only the first "
                 "listed move of each state and letter", "accept_all": "one accepting state with every move"}
    max_draws = 600

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        n = p.states
        delta = [[sorted(rng.sample(range(n), rng.choice((0, 1, 1, 2)))) for _ in LETTERS] for _ in range(n)]
        accepting = sorted(q for q in range(n) if rng.random() < 0.35)
        if not accepting or all(len(t) <= 1 for row in delta for t in row):
            return None  # accepts nothing, or is deterministic already
        nfa = {"delta": delta, "accepting": accepting}
        states, k = minimal(subset_dfa(nfa))
        if not p.min_dfa <= k <= p.min_dfa + SPREAD:
            return None
        inst = {"nfa": nfa, "limit": k, "solution": states}
        return None if self.any_baseline_accepted(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        nfa = inst["nfa"]
        rows = []
        for q, row in enumerate(nfa["delta"]):
            moves = "; ".join(f"{ch} -> {{{', '.join(f'q{r}' for r in targets)}}}"
                              for ch, targets in zip(LETTERS, row, strict=True))
            rows.append(f"q{q}{' (accepting)' if q in nfa['accepting'] else ''}: {moves}")
        return ("A nondeterministic finite automaton over {a, b}, start state q0 (a move to {} means no move; a "
                "word is accepted when some run ends in an accepting state):\n" + "\n".join(rows)
                + f"\n\nGive a deterministic automaton with at most {inst['limit']} states that accepts exactly the "
                "same words (a state may lack a move: the word is then rejected).")

    def show(self, answer: list[list[Any]]) -> str:
        return "; ".join(f"{name}: " + ", ".join([*(f"{ch}->{t}" for ch, t in moves.items()),
                                                  *(["accept"] if accept else [])])
                         for name, moves, accept in answer)

    def read(self, body: str) -> list[list[Any]] | None:
        states: list[list[Any]] = []
        for segment in re.split(r"[;\n]", body):
            if not segment.strip():
                continue
            found = _STATE.fullmatch(segment)
            if not found or len(states) >= MAX_STATES:
                return None
            rest = found.group(2)
            moves = {}
            for ch, target in _MOVE.findall(rest):
                if ch not in LETTERS or ch in moves:
                    return None
                moves[ch] = target
            left = _MOVE.sub(" ", rest).lower().replace(",", " ").split()
            if any(word not in ("accept", "accepting") for word in left):
                return None
            states.append([found.group(1), moves, bool(left)])
        names = [s[0] for s in states]
        if not states or len(set(names)) < len(names):
            return None
        return states

    def check(self, inst: dict[str, Any], answer: list[list[Any]]) -> str | None:
        if len(answer) > inst["limit"]:
            return f"{len(answer)} states; at most {inst['limit']}"
        names = {s[0] for s in answer}
        unknown = sorted({t for s in answer for t in s[1].values()} - names)
        if unknown:
            return f"a move goes to {unknown[0]}, which is not a state"
        differ = shortest_difference(as_dfa(answer), subset_dfa(inst["nfa"]))
        if differ is not None:
            return f"the automata disagree on {differ or 'the empty word'!r}"
        return None

    def corrupt(self, inst: dict[str, Any], answer: list[list[Any]], rng: random.Random) -> list[list[Any]]:
        wrong = [[name, dict(moves), accept] for name, moves, accept in answer]
        k = rng.randrange(len(wrong))
        wrong[k][2] = not wrong[k][2]  # one state's acceptance flipped (minimal: that changes the language)
        return wrong

    def baseline_subset(self, inst: dict[str, Any], rng: random.Random) -> list[list[Any]]:
        dfa = subset_dfa(inst["nfa"])
        live = [q for q in range(dfa.size) if _reaches_accepting(dfa, q)]
        name = {q: f"S{q}" for q in live}
        return [[name[q], {ch: name[dfa.delta[q][i]] for i, ch in enumerate(LETTERS) if dfa.delta[q][i] in name},
                 q in dfa.accepting] for q in live]

    def baseline_first_choice(self, inst: dict[str, Any], rng: random.Random) -> list[list[Any]]:
        nfa = inst["nfa"]
        return [[f"q{q}", {ch: f"q{t[0]}" for ch, t in zip(LETTERS, row, strict=True) if t}, q in nfa["accepting"]]
                for q, row in enumerate(nfa["delta"])]

    def baseline_accept_all(self, inst: dict[str, Any], rng: random.Random) -> list[list[Any]]:
        return [["A", {ch: "A" for ch in LETTERS}, True]]
