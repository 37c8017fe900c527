"""fl/horn_least_model: the least model of a set of Horn clauses (facts and rules `a AND b -> c`): the atoms true in
every model. The answer is unique; it is checked against forward chaining to the fixpoint."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Task, distinct_variables


def chain(facts: list[int], rules: list[list[Any]], rounds: int | None = None) -> tuple[set[int], int]:
    """(the atoms forward chaining derives, the rounds it took): each round fires every rule whose body holds;
    `rounds` stops it early."""
    true = set(facts)
    done = 0
    while rounds is None or done < rounds:
        new = {head for body, head in rules if head not in true and all(b in true for b in body)}
        if not new:
            break
        true |= new
        done += 1
    return true, done


def rule_text(body: list[int], head: int) -> str:
    return " AND ".join(f"x{b}" for b in body) + f" -> x{head}"


class HornLeastModel(Task):
    name = "horn_least_model"
    title = "Least model of Horn clauses"
    knobs = {"variables": Knob(14, 6, 30, "atoms x1..xn"),
             "rounds": Knob(5, 2, 12, "forward-chaining rounds the least model needs (at least)"),
             "distractors": Knob(8, 0, 40, "rules whose body never holds")}
    groups = {"easy": {"variables": 14, "rounds": 3, "distractors": 6},
              "medium": {"variables": 18, "rounds": 5, "distractors": 10},
              "hard": {"variables": 22, "rounds": 7, "distractors": 14}}
    answer_format = ("the numbers of the atoms that are true in the least model, separated by spaces, e.g. "
                     "<answer>2 5 7</answer> for x2, x5 and x7 (<answer>none</answer> for none).")
    baselines = {"facts_only": "the facts, no rule applied", "one_round": "the facts and one round of rules",
                 "heads": "the facts and every atom that is the head of a rule",
                 "all_but_last": "forward chaining stopped one round short"}

    def validate(self, p: Any) -> None:
        if p.variables < p.rounds + 4:
            raise ValueError("variables must be at least rounds + 4")

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        n = p.variables
        atoms = list(range(1, n + 1))
        rng.shuffle(atoms)
        true_count = rng.randint(max(p.rounds + 2, n // 3), max(p.rounds + 2, 2 * n // 3))
        model, false = atoms[:true_count], atoms[true_count:]
        if len(false) < 2:
            return None
        # layer 0: facts; every later layer is derived from the one before it (and anything earlier)
        first = rng.randint(1, 2)
        bounds = [0, first, *sorted(rng.sample(range(first + 1, true_count), p.rounds - 1)), true_count]
        layers = [model[a:b] for a, b in zip(bounds, bounds[1:], strict=False)]
        facts, rules = sorted(layers[0]), []
        for k in range(1, len(layers)):
            earlier = [a for layer in layers[:k] for a in layer]
            for head in layers[k]:
                for _ in range(rng.randint(1, 2)):  # one or two ways to derive it
                    body = {rng.choice(layers[k - 1])}
                    body |= set(rng.sample(earlier, min(len(earlier), rng.randint(0, 2))))
                    rules.append([sorted(body), head])
        for _ in range(p.distractors):  # each needs a false atom: it never fires
            body = {rng.choice(false)} | set(rng.sample(atoms, rng.randint(0, 2)))
            head = rng.choice(atoms)
            if head not in body:
                rules.append([sorted(body), head])
        rules = [[list(body), head] for body, head in dict.fromkeys((tuple(b), h) for b, h in rules)]  # no repeats
        rng.shuffle(rules)
        least, rounds = chain(facts, rules)
        if least != set(model) or rounds != p.rounds:
            return None
        inst = {"variables": n, "facts": facts, "rules": rules, "solution": sorted(least)}
        return None if self.any_baseline_accepted(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        facts = ", ".join(f"x{a}" for a in inst["facts"])
        rules = "\n".join(rule_text(body, head) for body, head in inst["rules"])
        return (f"Atoms x1..x{inst['variables']} are each true or false. These facts are true: {facts}.\n"
                f"These rules hold (when every atom on the left is true, the atom on the right is true):\n{rules}\n\n"
                "Which atoms are true in the least model, that is, in every assignment that makes all the facts and "
                "rules true?")

    def check(self, inst: dict[str, Any], answer: list[int]) -> str | None:
        bad = distinct_variables(answer, inst["variables"])
        if bad:
            return bad
        least, _ = chain(inst["facts"], inst["rules"])
        missing, extra = sorted(least - set(answer)), sorted(set(answer) - least)
        if missing:
            return f"{len(missing)} atoms of the least model missing, e.g. x{missing[0]}"
        if extra:
            return f"x{extra[0]} is not in the least model (a model can make it false)"
        return None

    def corrupt(self, inst: dict[str, Any], answer: list[int], rng: random.Random) -> list[int]:
        if rng.random() < 0.5:  # one derived atom dropped, or one false atom added
            derived = [a for a in answer if a not in inst["facts"]]
            drop = rng.choice(derived or answer)
            return [a for a in answer if a != drop]
        outside = [a for a in range(1, inst["variables"] + 1) if a not in answer]
        return sorted([*answer, rng.choice(outside)])

    def baseline_facts_only(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return sorted(inst["facts"])

    def baseline_one_round(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return sorted(chain(inst["facts"], inst["rules"], rounds=1)[0])

    def baseline_heads(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        return sorted(set(inst["facts"]) | {head for _, head in inst["rules"]})

    def baseline_all_but_last(self, inst: dict[str, Any], rng: random.Random) -> list[int]:
        rounds = chain(inst["facts"], inst["rules"])[1]
        return sorted(chain(inst["facts"], inst["rules"], rounds=max(0, rounds - 1))[0])
