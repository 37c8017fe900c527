"""fl/cfg_derivation: a leftmost derivation of a given word in a context-free grammar (any leftmost derivation of the
word scores; every step is checked to rewrite the leftmost nonterminal by one of its rules)."""
from __future__ import annotations

import functools
import random
from typing import Any

from ..core import Knob, Task
from ..grammar import POOL, Grammar, derivable_lengths, random_grammar, rules_text, sample_word

MAX_STEPS = 60  # sentential forms in an answer (a word of n letters in this normal form takes 2n - 1 steps)


def tree(grammar: Grammar, word: str) -> Any:
    """A parse tree of `word` from S: (X, letter) or (X, left tree, right tree); None when S does not derive it."""

    @functools.cache
    def build(x: str, i: int, j: int) -> Any:
        if j - i == 1:
            return (x, word[i]) if [word[i]] in grammar[x] else None
        for body in grammar[x]:
            if len(body) == 2:
                for k in range(i + 1, j):
                    left = build(body[0], i, k)
                    if left is not None:
                        right = build(body[1], k, j)
                        if right is not None:
                            return (x, left, right)
        return None

    return build("S", 0, len(word))


def leftmost(t: Any) -> list[str]:
    """The sentential forms of the leftmost derivation a parse tree stands for, S first."""
    forms, pending = ["S"], [t]  # pending: the trees of the nonterminals still in the form, left to right
    done = ""
    while pending:
        node = pending.pop(0)
        children = list(node[1:])
        if len(children) == 1:
            done += children[0]
        else:
            pending = children + pending
        forms.append(done + "".join(n[0] for n in pending))
    return forms


def step_error(grammar: Grammar, before: str, after: str) -> str | None:
    """Why `after` is not `before` with its leftmost nonterminal rewritten by one of its rules; None when it is."""
    k = next((i for i, ch in enumerate(before) if ch.isupper()), None)
    if k is None:
        return f"{before} has no nonterminal left to rewrite"
    x = before[k]
    if x not in grammar:
        return f"{x} is not a nonterminal of the grammar"
    if any(after == before[:k] + "".join(body) + before[k + 1:] for body in grammar[x]):
        return None
    return f"{after} is not {before} with its leftmost {x} rewritten by a rule of {x}"


class CfgDerivation(Task):
    name = "cfg_derivation"
    title = "Leftmost derivation in a context-free grammar"
    knobs = {"nonterminals": Knob(5, 3, 8, "nonterminals (S, A, B, ...)"), "length": Knob(8, 3, 14, "letters")}
    groups = {"easy": {"nonterminals": 4, "length": 5}, "medium": {"nonterminals": 5, "length": 7},
              "hard": {"nonterminals": 6, "length": 9}}
    answer_format = ("the sentential forms from S to the word, separated by '=>', e.g. <answer>S => A B => a B => a C D "
                     "=> a b D => a b b</answer>.")
    baselines = {"first_rule": "the leftmost nonterminal always rewritten by its first rule (a letter rule when the "
                               "form is long enough)",
                 "greedy": "the next letter of the word when the nonterminal has that letter rule, else its first "
                           "two-nonterminal rule",
                 "one_step": "S => the word"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        letters = "".join(sorted(rng.sample(POOL, 3)))
        grammar = random_grammar(rng, p.nonterminals, letters, binary=2, terminal=0.8)
        lengths = derivable_lengths(grammar, p.length)
        if p.length not in lengths["S"]:
            return None
        word = sample_word(grammar, lengths, "S", p.length, rng)
        inst = {"grammar": grammar, "letters": letters, "word": word,
                "solution": leftmost(tree(grammar, word))}
        return None if self.any_baseline_accepted(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        return (f"A context-free grammar with start symbol S, nonterminals in capitals and terminals "
                f"{', '.join(inst['letters'])}:\n{rules_text(inst['grammar'])}\n\nGive a leftmost derivation of the "
                f"word {inst['word']}: each step rewrites the leftmost nonterminal of the previous form by one of its "
                "rules.")

    def show(self, answer: list[str]) -> str:
        return " => ".join(" ".join(form) for form in answer)

    def read(self, body: str) -> list[str] | None:
        forms = ["".join(part.split()) for part in body.replace("⇒", "=>").split("=>")]
        if len(forms) > MAX_STEPS or any(not f or not all(ch.isascii() and ch.isalpha() for ch in f) for f in forms):
            return None
        return forms

    def check(self, inst: dict[str, Any], answer: list[str]) -> str | None:
        if answer[0] != "S":
            return "the derivation must start at S"
        if answer[-1] != inst["word"]:
            return f"it ends at {answer[-1]}, not at {inst['word']}"
        for before, after in zip(answer, answer[1:], strict=False):
            why = step_error(inst["grammar"], before, after)
            if why:
                return why
        return None

    def corrupt(self, inst: dict[str, Any], answer: list[str], rng: random.Random) -> list[str]:
        wrong = list(answer)
        del wrong[rng.randrange(1, len(wrong) - 1)]  # one step left out: two rewrites at once
        return wrong

    def baseline_first_rule(self, inst: dict[str, Any], rng: random.Random) -> list[str]:
        return self._expand(inst, lambda form, k, bodies: next(
            (b for b in bodies if len(b) == 1), bodies[0]) if len(form) >= len(inst["word"]) else bodies[0])

    def baseline_greedy(self, inst: dict[str, Any], rng: random.Random) -> list[str]:
        word = inst["word"]
        return self._expand(inst, lambda form, k, bodies: next(
            (b for b in bodies if len(b) == 1 and k < len(word) and b[0] == word[k]),
            next((b for b in bodies if len(b) == 2), bodies[0])))

    def baseline_one_step(self, inst: dict[str, Any], rng: random.Random) -> list[str]:
        return ["S", inst["word"]]

    @staticmethod
    def _expand(inst: dict[str, Any], choose: Any) -> list[str]:
        """Leftmost rewriting with `choose(form, position, bodies)` until no nonterminal is left or the form grows
        past the word."""
        forms = ["S"]
        while len(forms) < MAX_STEPS and len(forms[-1]) <= len(inst["word"]):
            form = forms[-1]
            k = next((i for i, ch in enumerate(form) if ch.isupper()), None)
            if k is None:
                break
            forms.append(form[:k] + "".join(choose(form, k, inst["grammar"][form[k]])) + form[k + 1:])
        return forms
