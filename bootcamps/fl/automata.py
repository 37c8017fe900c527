"""Deterministic finite automata for the fl tasks: a small typed record, random draws, the equivalence classes of
states (Moore's partition refinement), the shortest word telling two automata apart, and the transition table in
text."""
from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Dfa:
    """States 0..n-1, start 0; `delta[q][i]` is the state after letter `alphabet[i]` in state q."""

    alphabet: str
    delta: tuple[tuple[int, ...], ...]
    accepting: frozenset[int]

    @property
    def size(self) -> int:
        return len(self.delta)

    def accepts(self, word: str) -> bool:
        q = 0
        for ch in word:
            q = self.delta[q][self.alphabet.index(ch)]
        return q in self.accepting

    def reachable(self) -> set[int]:
        seen, todo = {0}, [0]
        while todo:
            for r in self.delta[todo.pop()]:
                if r not in seen:
                    seen.add(r)
                    todo.append(r)
        return seen

    def to_json(self) -> dict[str, Any]:
        return {"alphabet": self.alphabet, "delta": [list(row) for row in self.delta],
                "accepting": sorted(self.accepting)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Dfa:
        return cls(data["alphabet"], tuple(tuple(row) for row in data["delta"]), frozenset(data["accepting"]))


def random_dfa(rng: random.Random, states: int, alphabet: str) -> Dfa:
    """Every state reachable from 0 (a random spanning tree of transitions first), about half of them accepting."""
    delta = [[-1] * len(alphabet) for _ in range(states)]
    for q in range(1, states):
        while True:  # an earlier state's free transition leads to q
            p, i = rng.randrange(q), rng.randrange(len(alphabet))
            if delta[p][i] < 0:
                delta[p][i] = q
                break
            if all(x >= 0 for row in delta[:q] for x in row):
                return random_dfa(rng, states, alphabet)  # no room left (one-letter alphabets); redraw
    for row in delta:
        for i in range(len(row)):
            if row[i] < 0:
                row[i] = rng.randrange(states)
    accepting = frozenset(q for q in range(states) if rng.random() < 0.5)
    return Dfa(alphabet, tuple(tuple(r) for r in delta), accepting)


def classes(dfa: Dfa) -> list[frozenset[int]]:
    """The classes of equivalent states (same language from each), by refining accept/reject until stable."""
    block = {q: int(q in dfa.accepting) for q in range(dfa.size)}
    while True:
        signature = {q: (block[q], *(block[r] for r in dfa.delta[q])) for q in range(dfa.size)}
        numbering = {sig: i for i, sig in enumerate(sorted(set(signature.values())))}
        refined = {q: numbering[signature[q]] for q in range(dfa.size)}
        if len(set(refined.values())) == len(set(block.values())):
            break
        block = refined
    groups: dict[int, set[int]] = {}
    for q, b in block.items():
        groups.setdefault(b, set()).add(q)
    return sorted((frozenset(g) for g in groups.values()), key=min)


def shortest_difference(a: Dfa, b: Dfa) -> str | None:
    """A shortest word one automaton accepts and the other rejects (breadth-first on the product; letters in
    alphabet order), or None when they accept the same language."""
    start = (0, 0)
    parent: dict[tuple[int, int], tuple[tuple[int, int], str] | None] = {start: None}
    todo = deque([start])
    while todo:
        pair = todo.popleft()
        if (pair[0] in a.accepting) != (pair[1] in b.accepting):
            word = []
            while parent[pair] is not None:
                pair, ch = parent[pair]  # type: ignore[misc]
                word.append(ch)
            return "".join(reversed(word))
        for i, ch in enumerate(a.alphabet):
            nxt = (a.delta[pair[0]][i], b.delta[pair[1]][i])
            if nxt not in parent:
                parent[nxt] = (pair, ch)
                todo.append(nxt)
    return None


def table(dfa: Dfa, label: str = "") -> str:
    """The transition table in text, one state a line: `q3 (accepting): a -> q1, b -> q4`."""
    lines = [f"{label}start state q0; alphabet {{{', '.join(dfa.alphabet)}}}"]
    for q, row in enumerate(dfa.delta):
        mark = " (accepting)" if q in dfa.accepting else ""
        moves = ", ".join(f"{ch} -> q{r}" for ch, r in zip(dfa.alphabet, row, strict=True))
        lines.append(f"q{q}{mark}: {moves}")
    return "\n".join(lines)
