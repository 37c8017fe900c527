"""fl/min_dnf: a shortest disjunctive normal form of a boolean function given by its truth table (fewest terms,
then fewest literals; any formula reaching that optimum scores, checked on every row)."""
from __future__ import annotations

import random
import re
from itertools import product
from typing import Any

from ..core import Knob, Task

Cube = tuple[int, ...]  # per variable: 1 (x), 0 (NOT x), 2 (absent)
_LITERAL = re.compile(r"\s*(~|!|¬|NOT\s+|not\s+)?\s*x([1-9])\s*('?)\s*")


def covers(cube: Cube, row: tuple[int, ...]) -> bool:
    return all(c == 2 or c == r for c, r in zip(cube, row, strict=True))


def primes(n: int, ones: set[tuple[int, ...]]) -> list[Cube]:
    """The prime implicants: cubes inside the on-set that no larger such cube contains (a cube with a free
    variable is inside when both its halves are)."""
    inside: dict[Cube, bool] = {}
    for c in sorted(product((0, 1, 2), repeat=n), key=lambda c: c.count(2)):
        if 2 not in c:
            inside[c] = c in ones
        else:
            i = c.index(2)
            inside[c] = inside[c[:i] + (0,) + c[i + 1:]] and inside[c[:i] + (1,) + c[i + 1:]]
    out = []
    for c, yes in inside.items():
        if yes and not any(inside[c[:i] + (2,) + c[i + 1:]] for i in range(n) if c[i] != 2):
            out.append(c)
    return out


def cost(cubes: list[Cube]) -> tuple[int, int]:
    return len(cubes), sum(v != 2 for c in cubes for v in c)


def minimum_cover(found: list[Cube], ones: set[tuple[int, ...]]) -> list[Cube]:
    """A cover of the on-set by the prime implicants `found` of least (terms, literals), by branch and bound:
    branch on the uncovered row with the fewest primes covering it."""
    best: list[list[Cube]] = [found]

    def search(chosen: list[Cube], left: set[tuple[int, ...]]) -> None:
        if cost(chosen) >= cost(best[0]):
            return
        if not left:
            best[0] = list(chosen)
            return
        row = min(left, key=lambda r: sum(covers(c, r) for c in found))
        for c in sorted((c for c in found if covers(c, row)), key=lambda c: sum(v != 2 for v in c)):
            search([*chosen, c], {r for r in left if not covers(c, r)})

    search([], set(ones))
    return best[0]


def greedy_cover(found: list[Cube], ones: set[tuple[int, ...]]) -> list[Cube]:
    """Primes taken greedily: the one covering most uncovered rows (fewer literals on a tie) first."""
    left, chosen = set(ones), []
    while left:
        c = max(found, key=lambda c: (sum(covers(c, r) for r in left), -sum(v != 2 for v in c)))
        chosen.append(c)
        left = {r for r in left if not covers(c, r)}
    return chosen


def formula(cubes: list[Cube]) -> str:
    terms = [" & ".join(("" if v else "~") + f"x{i + 1}" for i, v in enumerate(c) if v != 2) for c in cubes]
    return " | ".join(t or "1" for t in terms)


def parse_dnf(body: str, n: int) -> list[Cube] | None:
    """`x1 & ~x2 | x3` (also `x1 x2' + x3`, `NOT`, `AND`, `OR`, `∧ ∨`) -> cubes; None when malformed or a term
    names a variable twice."""
    text = body.replace("∨", "|").replace("+", "|").replace(" OR ", "|").replace(" or ", "|")
    text = text.replace("∧", "&").replace("*", "&").replace(" AND ", "&").replace(" and ", "&")
    if len(text) > 2000:
        return None
    cubes = []
    for term in text.split("|"):
        term = term.strip().strip("()")
        if term == "1":
            cubes.append((2,) * n)
            continue
        cube = [2] * n
        parts = [p for p in re.split(r"\s*&\s*|\s+(?=[~!¬x]|NOT|not)", term) if p.strip()]
        if not parts:
            return None
        for part in parts:
            found = _LITERAL.fullmatch(part)
            if not found or int(found[2]) > n or cube[int(found[2]) - 1] != 2:
                return None
            cube[int(found[2]) - 1] = 0 if (found[1] or found[3]) else 1
        cubes.append(tuple(cube))
    return cubes


class MinDnf(Task):
    name = "min_dnf"
    title = "Minimal disjunctive normal form"
    knobs = {"variables": Knob(4, 3, 5, "variables x1..xn"), "ones": Knob(7, 2, 24, "rows where the function is 1")}
    groups = {"easy": {"variables": 5, "ones": 8}, "medium": {"variables": 5, "ones": 11},
              "hard": {"variables": 5, "ones": 14}}
    answer_format = ("the formula with & for AND, | for OR and ~ for NOT, e.g. <answer>x1 & ~x3 | x2 & x4</answer>.")
    baselines = {"minterms": "one full term per row where the function is 1",
                 "all_primes": "every prime implicant", "greedy": "prime implicants taken greedily, the one covering "
                                                                 "most uncovered rows first"}

    def validate(self, p: Any) -> None:
        if p.ones >= 1 << p.variables:
            raise ValueError("ones must be less than 2 ** variables")

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        rows = list(product((0, 1), repeat=p.variables))
        ones = set(rng.sample(rows, p.ones))
        found = primes(p.variables, ones)
        best = minimum_cover(found, ones)
        if cost(best) in (cost(found), cost(greedy_cover(found, ones)), (len(ones), len(ones) * p.variables)):
            return None  # a baseline (every prime, the greedy cover, the minterms) is already optimal
        return {"variables": p.variables, "ones": sorted(ones), "cost": list(cost(best)), "solution": formula(best)}

    def statement(self, inst: dict[str, Any]) -> str:
        n = inst["variables"]
        ones = {tuple(r) for r in inst["ones"]}
        head = " ".join(f"x{i}" for i in range(1, n + 1)) + " | f"
        table = "\n".join(" ".join(f"{v:>{len(str(i + 1)) + 1}}" for i, v in enumerate(r)) + f" | {int(r in ones)}"
                          for r in product((0, 1), repeat=n))
        return (f"A boolean function f of x1..x{n}, by its truth table:\n{head}\n{table}\n\nWrite f in disjunctive "
                "normal form (an OR of terms, each an AND of variables and negated variables) with as few terms as "
                "possible and, among those, as few literals in total as possible.")

    def show(self, answer: str) -> str:
        return answer

    def read(self, body: str) -> str | None:
        return body.strip() if len(body) <= 2000 else None

    def check(self, inst: dict[str, Any], answer: str) -> str | None:
        n = inst["variables"]
        cubes = parse_dnf(answer, n)
        if cubes is None:
            return "not a DNF over the variables x1..xn"
        ones = {tuple(r) for r in inst["ones"]}
        for row in product((0, 1), repeat=n):
            if any(covers(c, row) for c in cubes) != (row in ones):
                return f"wrong value at x = {''.join(map(str, row))}"
        terms, literals = cost(cubes)
        if [terms, literals] != inst["cost"]:
            return f"{terms} terms and {literals} literals; the least is {inst['cost'][0]} and {inst['cost'][1]}"
        return None

    def corrupt(self, inst: dict[str, Any], answer: str, rng: random.Random) -> str:
        terms = answer.split(" | ")
        return " | ".join(terms[:-1]) if len(terms) > 1 else answer.replace("x1", "~x1", 1)

    def baseline_minterms(self, inst: dict[str, Any], rng: random.Random) -> str:
        return formula([tuple(r) for r in inst["ones"]])

    def baseline_all_primes(self, inst: dict[str, Any], rng: random.Random) -> str:
        return formula(primes(inst["variables"], {tuple(r) for r in inst["ones"]}))

    def baseline_greedy(self, inst: dict[str, Any], rng: random.Random) -> str:
        ones = {tuple(r) for r in inst["ones"]}
        return formula(greedy_cover(primes(inst["variables"], ones), ones))
