"""fl/dfa_distinguish: a shortest word accepted by exactly one of two DFAs (any shortest one scores)."""
from __future__ import annotations

import random
from typing import Any

from ..automata import Dfa, random_dfa, shortest_difference, table
from ..core import Knob, Task, word

ALPHABETS = {2: "ab", 3: "abc"}
MOST_SHORTEST = 2


def mutate(rng: random.Random, dfa: Dfa) -> Dfa:
    """`dfa` with one transition redirected."""
    delta = [list(row) for row in dfa.delta]
    q, i = rng.randrange(dfa.size), rng.randrange(len(dfa.alphabet))
    delta[q][i] = rng.choice([r for r in range(dfa.size) if r != delta[q][i]])
    return Dfa(dfa.alphabet, tuple(tuple(r) for r in delta), dfa.accepting)


def shortest_count(a: Dfa, b: Dfa, most: int) -> int:
    """How many words of the shortest distinguishing length there are (counting stops past `most`), by counting
    words into each pair of states layer by layer."""
    layer = {(0, 0): 1}
    for _ in range(a.size * b.size + 1):
        found = sum(k for (p, q), k in layer.items() if (p in a.accepting) != (q in b.accepting))
        if found:
            return found
        nxt: dict[tuple[int, int], int] = {}
        for (p, q), k in layer.items():
            for i in range(len(a.alphabet)):
                pair = (a.delta[p][i], b.delta[q][i])
                nxt[pair] = min(most + 1, nxt.get(pair, 0) + k)
        layer = nxt
    return 0


def shortest_accepted(dfa: Dfa) -> str | None:
    """A shortest word the automaton accepts (None: it accepts nothing)."""
    empty = Dfa(dfa.alphabet, tuple((0,) * len(dfa.alphabet) for _ in range(1)), frozenset())
    return shortest_difference(dfa, empty)


class DfaDistinguish(Task):
    name = "dfa_distinguish"
    title = "Distinguishing word of two DFAs"
    knobs = {"states": Knob(6, 3, 20, "states of each automaton"), "letters": Knob(2, 2, 3, "alphabet size"),
             "min_length": Knob(4, 1, 12, "the shortest distinguishing word is at least this long")}
    groups = {"easy": {"states": 6, "letters": 3, "min_length": 5},
              "medium": {"states": 8, "letters": 3, "min_length": 5},
              "hard": {"states": 10, "letters": 3, "min_length": 5}}
    max_draws = 2000  # about 1 draw in 15 qualifies; a draw costs about 0.2 ms
    answer_format = ("the word, letters only, e.g. <answer>abba</answer> (<answer>empty</answer> for the empty "
                     "word).")
    baselines = {"empty": "the empty word", "first_accepted": "a shortest word the first automaton accepts",
                 "second_accepted": "a shortest word the second automaton accepts"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        a = random_dfa(rng, p.states, ALPHABETS[p.letters])
        b = mutate(rng, random_dfa(rng, p.states, ALPHABETS[p.letters]) if rng.random() < 0.3 else a)
        found = shortest_difference(a, b)
        if found is None or len(found) < p.min_length or shortest_count(a, b, MOST_SHORTEST) > MOST_SHORTEST:
            return None  # too short, or so many shortest words that a fixed word often is one
        inst = {"first": a.to_json(), "second": b.to_json(), "length": len(found), "solution": found}
        return None if self.any_baseline_accepted(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        a, b = Dfa.from_json(inst["first"]), Dfa.from_json(inst["second"])
        return (f"Two deterministic finite automata over the same alphabet.\n\nAutomaton A:\n{table(a)}\n\n"
                f"Automaton B:\n{table(b)}\n\nFind a shortest word that one of them accepts and the other rejects.")

    def show(self, answer: str) -> str:
        return answer or "empty"

    def read(self, body: str) -> str | None:
        return word(body, "abc")

    def check(self, inst: dict[str, Any], answer: str) -> str | None:
        a, b = Dfa.from_json(inst["first"]), Dfa.from_json(inst["second"])
        if any(ch not in a.alphabet for ch in answer):
            return f"letters must come from {a.alphabet}"
        if a.accepts(answer) == b.accepts(answer):
            return "both automata " + ("accept" if a.accepts(answer) else "reject") + " this word"
        if len(answer) != inst["length"]:
            return f"a word of length {len(answer)}; the shortest has {inst['length']}"
        return None

    def corrupt(self, inst: dict[str, Any], answer: str, rng: random.Random) -> str:
        k = rng.randrange(len(answer))
        return answer[:k] + answer[k + 1:]

    def baseline_empty(self, inst: dict[str, Any], rng: random.Random) -> str:
        return ""

    def baseline_first_accepted(self, inst: dict[str, Any], rng: random.Random) -> str | None:
        return shortest_accepted(Dfa.from_json(inst["first"]))

    def baseline_second_accepted(self, inst: dict[str, Any], rng: random.Random) -> str | None:
        return shortest_accepted(Dfa.from_json(inst["second"]))
