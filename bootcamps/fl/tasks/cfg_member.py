"""fl/cfg_member: a word of a given length that a context-free grammar generates (any such word scores; checked by
CYK parsing)."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Task, word
from ..grammar import (
    POOL,
    derivable_lengths,
    parse_trees,
    random_grammar,
    rules_text,
    sample_word,
    tree_counts,
)


class CfgMember(Task):
    name = "cfg_member"
    title = "Word of a context-free grammar"
    knobs = {"nonterminals": Knob(5, 3, 8, "nonterminals (S, A, B, ...)"), "length": Knob(8, 4, 12, "letters"),
             "density": Knob(50, 1, 1000, "at most this many parse trees (so words) in 10,000 words of that length")}
    groups = {"easy": {"nonterminals": 4, "length": 7, "density": 100},
              "medium": {"nonterminals": 5, "length": 8, "density": 50},
              "hard": {"nonterminals": 6, "length": 10, "density": 20}}
    answer_format = "the word, letters only, e.g. <answer>abbab</answer>."
    baselines = {"random_word": "a random word of the asked length over the grammar's letters",
                 "repeated_letter": "the letter of the most terminal rules, repeated",
                 "alternating": "the grammar's first two letters alternating",
                 "terminal_order": "the terminal rules' letters in the order listed, repeated to the length"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        letters = "".join(sorted(rng.sample(POOL, 3)))
        grammar = random_grammar(rng, p.nonterminals, letters, binary=1, terminal=0.85)
        lengths = derivable_lengths(grammar, p.length)
        if p.length not in lengths["S"]:
            return None
        if tree_counts(grammar, p.length)["S"][p.length] * 10_000 > p.density * len(letters) ** p.length:
            return None  # so many words of that length (at most as many as parse trees) that a random one may be one
        if any(parse_trees(grammar, ch * p.length) for ch in letters):
            return None  # one letter repeated is a word
        inst = {"grammar": grammar, "letters": letters, "length": p.length,
                "solution": sample_word(grammar, lengths, "S", p.length, rng)}
        return None if self.any_baseline_accepted(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        return (f"A context-free grammar with start symbol S, nonterminals in capitals and terminals "
                f"{', '.join(inst['letters'])}:\n"
                f"{rules_text(inst['grammar'])}\n\nGive a word of exactly {inst['length']} letters that this "
                "grammar generates.")

    def show(self, answer: str) -> str:
        return answer

    def read(self, body: str) -> str | None:
        return word(body.replace(" ", ""), POOL, limit=40)

    def check(self, inst: dict[str, Any], answer: str) -> str | None:
        if len(answer) != inst["length"]:
            return f"{len(answer)} letters; the task asks for {inst['length']}"
        return None if parse_trees(inst["grammar"], answer) else "the grammar does not generate this word"

    def corrupt(self, inst: dict[str, Any], answer: str, rng: random.Random) -> str:
        for k in rng.sample(range(len(answer)), len(answer)):  # one letter changed, off the language
            for ch in inst["letters"]:
                wrong = answer[:k] + ch + answer[k + 1:]
                if not parse_trees(inst["grammar"], wrong):
                    return wrong
        return answer[1:]

    def baseline_random_word(self, inst: dict[str, Any], rng: random.Random) -> str:
        return "".join(rng.choice(inst["letters"]) for _ in range(inst["length"]))

    def baseline_repeated_letter(self, inst: dict[str, Any], rng: random.Random) -> str:
        return max(inst["letters"], key=self._terminals(inst).count) * inst["length"]

    def baseline_alternating(self, inst: dict[str, Any], rng: random.Random) -> str:
        return (inst["letters"][:2] * inst["length"])[:inst["length"]]

    def baseline_terminal_order(self, inst: dict[str, Any], rng: random.Random) -> str:
        order = "".join(dict.fromkeys(self._terminals(inst))) or inst["letters"]
        return (order * inst["length"])[:inst["length"]]

    @staticmethod
    def _terminals(inst: dict[str, Any]) -> list[str]:
        return [b[0] for bodies in inst["grammar"].values() for b in bodies if len(b) == 1]
