"""al/stable_matching: a stable matching of n men and n women with ranked preferences (any stable matching scores)."""
from __future__ import annotations

import random
from typing import Any

from ..core import Knob, Problem, pairs


def gale_shapley(men: list[list[int]], women: list[list[int]]) -> list[list[int]]:
    """The men-proposing deferred acceptance: [man, woman] pairs, by man."""
    n = len(men)
    rank = [{m: r for r, m in enumerate(prefs)} for prefs in women]
    husband: dict[int, int] = {}
    next_choice, free = [0] * (n + 1), list(range(n, 0, -1))
    while free:
        m = free.pop()
        w = men[m - 1][next_choice[m]]
        next_choice[m] += 1
        other = husband.get(w)
        if other is None or rank[w - 1][m] < rank[w - 1][other]:
            husband[w] = m
            if other is not None:
                free.append(other)
        else:
            free.append(m)
    return sorted([m, w] for w, m in husband.items())


def blocking_pair(men: list[list[int]], women: list[list[int]], matched: list[list[int]]) -> tuple[int, int] | None:
    """A man and a woman who both prefer each other to their partners, or None."""
    wife = {m: w for m, w in matched}
    husband = {w: m for m, w in matched}
    for m, prefs in enumerate(men, 1):
        for w in prefs[:prefs.index(wife[m])]:
            if women[w - 1].index(m) < women[w - 1].index(husband[w]):
                return m, w
    return None


def serial(first: list[list[int]]) -> dict[int, int]:
    """Each of one side in number order takes its favourite partner still free."""
    taken: dict[int, int] = {}
    for a, prefs in enumerate(first, 1):
        b = next(x for x in prefs if x not in taken.values())
        taken[a] = b
    return taken


class StableMatching(Problem):
    name = "stable_matching"
    title = "Stable matching"
    knobs = {"size": Knob(8, 3, 30, "men, and as many women")}
    groups = {"easy": {"size": 6}, "medium": {"size": 8}, "hard": {"size": 11}}
    answer_format = "the pairs `man-woman`, separated by commas, e.g. <answer>a-x, b-y</answer>."
    baselines = {"men_serial": "men in number order, each taking his favourite woman still free",
                 "women_serial": "women in number order, each taking her favourite man still free"}

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        men, women = ([rng.sample(range(1, p.size + 1), p.size) for _ in range(p.size)] for _ in range(2))
        inst = {"men": men, "women": women, "solution": gale_shapley(men, women)}
        if any(self.accepts(inst, self.baseline(b, inst, rng)) for b in self.baselines):
            return None
        return inst

    def statement(self, inst: dict[str, Any]) -> str:
        n = len(inst["men"])
        rows = "\n".join(f"man {m}: " + " > ".join(map(str, prefs)) for m, prefs in enumerate(inst["men"], 1))
        rows += "\n" + "\n".join(f"woman {w}: " + " > ".join(map(str, prefs))
                                 for w, prefs in enumerate(inst["women"], 1))
        return (f"{n} men and {n} women (each numbered 1..{n}) rank everyone of the other side, most preferred "
                f"first:\n{rows}\n\nPair every man with one woman so that the pairing is stable: no man and woman "
                "who are not paired together both prefer each other to the partners they got.")

    def show(self, answer: list[list[int]]) -> str:
        return ", ".join(f"{m}-{w}" for m, w in answer)

    def read(self, body: str) -> list[list[int]] | None:
        found = pairs(body)
        return None if found is None else [list(pair) for pair in found]

    def check(self, inst: dict[str, Any], answer: list[list[int]]) -> str | None:
        n = len(inst["men"])
        if sorted(m for m, _ in answer) != list(range(1, n + 1)) or sorted(w for _, w in answer) != list(
                range(1, n + 1)):
            return f"every man and every woman 1..{n} in exactly one pair"
        blocking = blocking_pair(inst["men"], inst["women"], answer)
        return f"man {blocking[0]} and woman {blocking[1]} prefer each other: not stable" if blocking else None

    def corrupt(self, inst: dict[str, Any], answer: list[list[int]], rng: random.Random) -> list[list[int]]:
        wrong = [list(pair) for pair in answer]
        i, j = rng.sample(range(len(wrong)), 2)
        wrong[i][1], wrong[j][1] = wrong[j][1], wrong[i][1]
        return wrong

    def baseline_men_serial(self, inst: dict[str, Any], rng: random.Random) -> list[list[int]]:
        return sorted([m, w] for m, w in serial(inst["men"]).items())

    def baseline_women_serial(self, inst: dict[str, Any], rng: random.Random) -> list[list[int]]:
        return sorted([m, w] for w, m in serial(inst["women"]).items())
