"""fl/knights_knaves: islanders who always tell the truth (knights) or always lie (knaves) make statements; name
the knights (the statements are drawn until exactly one assignment fits)."""
from __future__ import annotations

import random
from itertools import product
from typing import Any

from ..core import Knob, Task

NAMES = ("Ada", "Ben", "Cy", "Dora", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lu")


def holds(claim: list[Any], knights: tuple[bool, ...]) -> bool:
    """Whether a claim is true when `knights[i]` says who is a knight."""
    kind = claim[0]
    if kind == "is":  # ["is", person, knight?]
        return knights[claim[1]] == claim[2]
    if kind == "same":  # ["same", a, b]
        return knights[claim[1]] == knights[claim[2]]
    if kind == "differ":
        return knights[claim[1]] != knights[claim[2]]
    if kind == "or":  # ["or", a, b]: a is a knight or b is a knight
        return knights[claim[1]] or knights[claim[2]]
    if kind == "both_knaves":
        return not knights[claim[1]] and not knights[claim[2]]
    if kind == "count":  # ["count", k]: exactly k of us are knights
        return sum(knights) == claim[1]
    if kind == "at_least":
        return sum(knights) >= claim[1]
    raise ValueError(kind)


def claim_text(claim: list[Any]) -> str:
    kind, rest = claim[0], claim[1:]
    if kind == "is":
        return f"{NAMES[rest[0]]} is a {'knight' if rest[1] else 'knave'}."
    if kind == "same":
        return f"{NAMES[rest[0]]} and {NAMES[rest[1]]} are of the same kind."
    if kind == "differ":
        return f"{NAMES[rest[0]]} and {NAMES[rest[1]]} are of different kinds."
    if kind == "or":
        return f"{NAMES[rest[0]]} is a knight or {NAMES[rest[1]]} is a knight (or both)."
    if kind == "both_knaves":
        return f"{NAMES[rest[0]]} and {NAMES[rest[1]]} are both knaves."
    if kind == "count":
        return f"Exactly {rest[0]} of us are knights."
    return f"At least {rest[0]} of us are knights."


def random_claim(n: int, speaker: int, rng: random.Random) -> list[Any]:
    kind = rng.choice(("is", "is", "same", "differ", "or", "both_knaves", "count", "at_least"))
    others = [i for i in range(n) if i != speaker]
    if kind == "is":
        return ["is", rng.choice(others), rng.random() < 0.5]
    if kind in ("count", "at_least"):
        return [kind, rng.randrange(1, n)]
    a, b = rng.sample(range(n), 2)
    return [kind, a, b]


class KnightsKnaves(Task):
    name = "knights_knaves"
    title = "Knights and knaves"
    knobs = {"people": Knob(8, 3, 12, "islanders")}
    groups = {"easy": {"people": 7}, "medium": {"people": 9}, "hard": {"people": 11}}
    answer_format = ("the names of all the knights, separated by commas (everyone else is a knave), "
                     "e.g. <answer>Ada, Cy</answer> (<answer>none</answer> when all are knaves).")
    baselines = {"all_knights": "everyone is a knight", "all_knaves": "everyone is a knave",
                 "believe_first": "the first speaker is a knight and every claim that follows from trusting "
                                  "them is taken, the rest knights"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        n = p.people
        statements: list[list[Any]] = []
        fits = list(product((False, True), repeat=n))
        for _ in range(3 * n):  # add statements until one assignment remains (or give up on this draw)
            speaker = rng.randrange(n)
            claim = random_claim(n, speaker, rng)
            left = [k for k in fits if holds(claim, k) == k[speaker]]
            if not left:
                continue
            statements.append([speaker, claim])
            fits = left
            if len(fits) == 1 and len(statements) >= n - 1 and n // 3 <= sum(fits[0]) <= n - n // 3:
                knights = [NAMES[i] for i in range(n) if fits[0][i]]
                inst = {"people": n, "statements": statements, "solution": knights}
                return None if self.any_baseline_accepted(inst, rng) else inst
        return None

    def statement(self, inst: dict[str, Any]) -> str:
        names = ", ".join(NAMES[:inst["people"]])
        said = "\n".join(f"{NAMES[s]} says: \"{claim_text(c)}\"" for s, c in inst["statements"])
        return (f"On an island every inhabitant is a knight, who always tells the truth, or a knave, who always "
                f"lies. You meet {names}.\n{said}\n\nWho are the knights? (Exactly one answer fits.)")

    def show(self, answer: list[str]) -> str:
        return ", ".join(answer) if answer else "none"

    def read(self, body: str) -> list[str] | None:
        text = body.strip()
        if text.lower() in ("none", "nobody", ""):
            return []
        names = [t.strip() for t in text.replace(" and ", ",").split(",") if t.strip()]
        return names if len(names) <= len(NAMES) and all(t in NAMES for t in names) else None

    def check(self, inst: dict[str, Any], answer: list[str]) -> str | None:
        if len(set(answer)) < len(answer) or not all(NAMES.index(t) < inst["people"] for t in answer):
            return "name each knight once, from the people met"
        return None if sorted(answer) == sorted(inst["solution"]) else "these are not exactly the knights"

    def corrupt(self, inst: dict[str, Any], answer: list[str], rng: random.Random) -> list[str]:
        return sorted(set(answer) ^ {NAMES[rng.randrange(inst["people"])]}, key=NAMES.index)

    def baseline_all_knights(self, inst: dict[str, Any], rng: random.Random) -> list[str]:
        return list(NAMES[:inst["people"]])

    def baseline_all_knaves(self, inst: dict[str, Any], rng: random.Random) -> list[str]:
        return []

    def baseline_believe_first(self, inst: dict[str, Any], rng: random.Random) -> list[str]:
        knights = [True] * inst["people"]
        speaker, claim = inst["statements"][0]
        if claim[0] == "is":
            knights[claim[1]] = claim[2]
        return [NAMES[i] for i in range(inst["people"]) if knights[i]]
