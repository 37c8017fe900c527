"""fl/cfg_ambiguity: a shortest word with two different parse trees in a context-free grammar (any shortest
ambiguous word scores; checked by counting CYK parse trees)."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Task, word
from ..grammar import POOL, derived, parse_trees, random_grammar, rules_text


class CfgAmbiguity(Task):
    name = "cfg_ambiguity"
    title = "Ambiguity witness of a context-free grammar"
    knobs = {"nonterminals": Knob(5, 3, 8, "nonterminals (S, A, B, ...)"),
             "min_length": Knob(4, 3, 7, "the shortest ambiguous word has at least this many letters")}
    groups = {"easy": {"nonterminals": 4, "min_length": 4}, "medium": {"nonterminals": 5, "min_length": 5},
              "hard": {"nonterminals": 6, "min_length": 6}}
    answer_format = "the word, letters only, e.g. <answer>abcab</answer>."
    baselines = {"shortest_word": "a shortest word the grammar generates",
                 "first_of_length": "the first generated word (in alphabetical order) of the right length",
                 "repeated_letter": "the letter with the most rules, repeated to the right length"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        letters = "".join(sorted(rng.sample(POOL, 3)))
        grammar = random_grammar(rng, p.nonterminals, letters, binary=1, terminal=0.9)
        table = derived(grammar, p.min_length + 2)["S"]
        n = next((k for k, words in enumerate(table) if any(count > 1 for count in words.values())), None)
        if n is None:
            return None
        words = table[n]
        ambiguous = sorted(w for w, count in words.items() if count > 1)
        if n < p.min_length or len(ambiguous) * 4 > len(words) or any(ch * n in ambiguous for ch in letters):
            return None  # too short, many words of that length ambiguous, or one letter repeated is
        inst = {"grammar": grammar, "letters": letters, "length": n, "solution": rng.choice(ambiguous)}
        return None if self.any_baseline_accepted(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        return (f"A context-free grammar with start symbol S, nonterminals in capitals and terminals "
                f"{', '.join(inst['letters'])}:\n"
                f"{rules_text(inst['grammar'])}\n\nThe grammar is ambiguous. Give a shortest word that has two (or "
                "more) different parse trees from S.")

    def show(self, answer: str) -> str:
        return answer

    def read(self, body: str) -> str | None:
        return word(body.replace(" ", ""), POOL, limit=40)

    def check(self, inst: dict[str, Any], answer: str) -> str | None:
        trees = parse_trees(inst["grammar"], answer)
        if trees < 2:
            return "the grammar does not generate this word" if not trees else "this word has one parse tree"
        if len(answer) != inst["length"]:
            return f"ambiguous, but {len(answer)} letters; the shortest ambiguous word has {inst['length']}"
        return None

    def corrupt(self, inst: dict[str, Any], answer: str, rng: random.Random) -> str:
        return answer[:-1]

    def baseline_shortest_word(self, inst: dict[str, Any], rng: random.Random) -> str | None:
        table = derived(inst["grammar"], inst["length"])["S"]
        return next((min(words) for words in table if words), None)

    def baseline_first_of_length(self, inst: dict[str, Any], rng: random.Random) -> str | None:
        words = derived(inst["grammar"], inst["length"])["S"][inst["length"]]
        return min(words) if words else None

    def baseline_repeated_letter(self, inst: dict[str, Any], rng: random.Random) -> str:
        letters = [b[0] for bodies in inst["grammar"].values() for b in bodies if len(b) == 1]
        return max(inst["letters"], key=letters.count) * inst["length"]
