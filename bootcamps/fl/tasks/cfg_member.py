"""fl/cfg_member: a word of a given length that a context-free grammar generates (any such word scores; checked by
CYK parsing)."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Task, word
from ..grammar import derivable_lengths, parse_trees, random_grammar, rules_text, sample_word

SAMPLES = 60  # random words of the asked length tried on a drawn grammar: it is kept only when none is generated


class CfgMember(Task):
    name = "cfg_member"
    title = "Word of a context-free grammar"
    knobs = {"nonterminals": Knob(5, 3, 8, "nonterminals (S, A, B, ...)"), "length": Knob(8, 4, 10, "letters")}
    groups = {"easy": {"nonterminals": 4, "length": 7}, "medium": {"nonterminals": 5, "length": 8},
              "hard": {"nonterminals": 6, "length": 10}}
    answer_format = "the word, letters only, e.g. <answer>abbab</answer>."
    baselines = {"random_word": "a random word of the asked length", "one_letter": "the letter a repeated",
                 "other_letter": "the letter b repeated",
                 "alternating": "abab... of the asked length"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        grammar = random_grammar(rng, p.nonterminals, "ab", binary=1, terminal=0.8)
        if {b[0] for bodies in grammar.values() for b in bodies if len(b) == 1} != {"a", "b"}:
            return None  # one letter only: the word is that letter repeated
        lengths = derivable_lengths(grammar, p.length)
        if p.length not in lengths["S"]:
            return None
        if any(parse_trees(grammar, "".join(rng.choice("ab") for _ in range(p.length))) for _ in range(SAMPLES)):
            return None  # so many words of that length that a random one often is one
        inst = {"grammar": grammar, "length": p.length, "solution": sample_word(grammar, lengths, "S", p.length, rng)}
        return None if self.any_baseline_accepted(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        return (f"A context-free grammar with start symbol S, nonterminals in capitals and terminals a and b:\n"
                f"{rules_text(inst['grammar'])}\n\nGive a word of exactly {inst['length']} letters that this "
                "grammar generates.")

    def show(self, answer: str) -> str:
        return answer

    def read(self, body: str) -> str | None:
        return word(body.replace(" ", ""), "ab", limit=40)

    def check(self, inst: dict[str, Any], answer: str) -> str | None:
        if len(answer) != inst["length"]:
            return f"{len(answer)} letters; the task asks for {inst['length']}"
        return None if parse_trees(inst["grammar"], answer) else "the grammar does not generate this word"

    def corrupt(self, inst: dict[str, Any], answer: str, rng: random.Random) -> str:
        for k in rng.sample(range(len(answer)), len(answer)):  # one letter changed, off the language
            wrong = answer[:k] + ("b" if answer[k] == "a" else "a") + answer[k + 1:]
            if not parse_trees(inst["grammar"], wrong):
                return wrong
        return answer[1:]

    def baseline_random_word(self, inst: dict[str, Any], rng: random.Random) -> str:
        return "".join(rng.choice("ab") for _ in range(inst["length"]))

    def baseline_one_letter(self, inst: dict[str, Any], rng: random.Random) -> str:
        return "a" * inst["length"]

    def baseline_other_letter(self, inst: dict[str, Any], rng: random.Random) -> str:
        return "b" * inst["length"]

    def baseline_alternating(self, inst: dict[str, Any], rng: random.Random) -> str:
        return ("ab" * inst["length"])[:inst["length"]]
