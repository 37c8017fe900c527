"""fl/resolution_refutation: a resolution proof that a CNF formula is unsatisfiable, within a step budget (any
refutation within it scores; every step's resolvent is recomputed and the last one must be the empty clause)."""
from __future__ import annotations

import itertools
import random
from typing import Any

from ..core import Knob, Task, clause_text

Clause = frozenset[int]


def resolvent(a: Clause, b: Clause) -> Clause | None:
    """The resolvent of two clauses that clash on exactly one variable; None otherwise (no clash, or a tautology)."""
    clash = [lit for lit in a if -lit in b]
    if len(clash) != 1:
        return None
    return (a - {clash[0]}) | (b - {-clash[0]})


def satisfiable(n: int, clauses: list[Clause]) -> bool:
    return any(all(any((lit > 0) == bool(mask >> (abs(lit) - 1) & 1) for lit in c) for c in clauses)
               for mask in range(1 << n))


def tree_refutation(n: int, clauses: list[Clause], order: list[int]) -> list[tuple[int, int]]:
    """A refutation read off a decision tree that splits on `order`: each branch ends at a clause the partial
    assignment falsifies; two sibling clauses are resolved on the split variable (equal clauses are derived once)."""
    known: dict[Clause, int] = {c: i for i, c in reversed(list(enumerate(clauses)))}
    steps: list[tuple[int, int]] = []
    everything = list(clauses)

    def falsified(assignment: dict[int, bool]) -> int:
        for i, c in enumerate(everything):
            if all(abs(lit) in assignment and assignment[abs(lit)] != (lit > 0) for lit in c):
                return i
        x = order[len(assignment)]
        ends = []
        for value in (False, True):
            i = falsified({**assignment, x: value})
            if x not in {abs(lit) for lit in everything[i]}:
                return i  # this branch's clause does not mention x: it is falsified already
            ends.append(i)
        r = resolvent(everything[ends[0]], everything[ends[1]])
        assert r is not None
        if r not in known:
            known[r] = len(everything)
            everything.append(r)
            steps.append((ends[0], ends[1]))
        return known[r]

    falsified({})
    return steps


def replay(clauses: list[Clause], steps: list[tuple[int, int]]) -> tuple[list[Clause], str | None]:
    """The clauses a list of steps (0-based pairs) derives, and why it is not a refutation (None when it is)."""
    have = list(clauses)
    for k, (i, j) in enumerate(steps, start=1):
        if not (0 <= i < len(have) and 0 <= j < len(have)):
            return have, f"step {k} names clause {max(i, j) + 1}, but only {len(have)} exist then"
        r = resolvent(have[i], have[j])
        if r is None:
            return have, f"step {k}: clauses {i + 1} and {j + 1} do not clash on exactly one variable"
        have.append(r)
    if not steps or have[-1]:
        return have, "the last step does not derive the empty clause"
    return have, None


def unit_refutes(clauses: list[Clause]) -> bool:
    """Whether unit resolution alone (resolving with one-literal clauses) derives the empty clause."""
    have = set(clauses)
    while True:
        if frozenset() in have:
            return True
        units = [c for c in have if len(c) == 1]
        new = {r for u in units for c in have if (r := resolvent(u, c)) is not None} - have
        if not new:
            return False
        have |= new


class ResolutionRefutation(Task):
    name = "resolution_refutation"
    title = "Resolution refutation"
    knobs = {"variables": Knob(5, 3, 7, "variables x1..xn"), "clauses": Knob(12, 4, 30, "clauses of the formula"),
             "slack": Knob(2, 0, 10, "steps allowed beyond the refutation the generator found")}
    groups = {"easy": {"variables": 4, "clauses": 9, "slack": 2}, "medium": {"variables": 5, "clauses": 12, "slack": 2},
              "hard": {"variables": 6, "clauses": 16, "slack": 2}}
    answer_format = ("the steps in order, each two clause numbers in parentheses, e.g. <answer>(1, 4) (2, 10) "
                     "(11, 12)</answer>: the first step's resolvent becomes clause m+1, the next m+2, and so on.")
    baselines = {"no_steps": "no step at all", "greedy": "resolve the first clashing pair that gives a new clause, "
                 "again and again, within the budget", "unit": "resolve with one-literal clauses only, in order"}
    max_draws = 600

    def draw(self, p: Any, rng: random.Random) -> dict[str, Any] | None:
        n = p.variables
        seen: set[Clause] = set()
        clauses: list[Clause] = []
        while len(clauses) < p.clauses:
            width = rng.choice((2, 3, 3)) if n > 3 else 2
            c = frozenset(v * rng.choice((1, -1)) for v in rng.sample(range(1, n + 1), width))
            if c not in seen:
                seen.add(c)
                clauses.append(c)
        if satisfiable(n, clauses) or unit_refutes(clauses):
            return None
        orders = [rng.sample(range(1, n + 1), n) for _ in range(4)]
        best = min((tree_refutation(n, clauses, o) for o in orders), key=len)
        inst = {"variables": n, "clauses": [sorted(c, key=abs) for c in clauses], "limit": len(best) + p.slack,
                "solution": [[i + 1, j + 1] for i, j in best]}
        if replay(clauses, best)[1] is not None:
            return None
        return None if self.any_baseline_accepted(inst, rng) else inst

    def statement(self, inst: dict[str, Any]) -> str:
        rows = "\n".join(f"{k}. {clause_text(c)}" for k, c in enumerate(inst["clauses"], start=1))
        m = len(inst["clauses"])
        return (f"This CNF formula over x1..x{inst['variables']} is unsatisfiable:\n{rows}\n\nProve it by resolution "
                f"in at most {inst['limit']} steps. A step names two clauses (given or derived) that clash on exactly "
                "one variable (one has x, the other NOT x, and no other variable appears with opposite signs); its "
                f"resolvent (the other literals of both) becomes clause {m + 1}, the next one {m + 2}, and so on. "
                "The last step must derive the empty clause.")

    def show(self, answer: list[list[int]]) -> str:
        return " ".join(f"({i}, {j})" for i, j in answer)

    def read(self, body: str) -> list[list[int]] | None:
        from ..core import numbers

        flat = numbers(body.replace("(", " ").replace(")", " "))
        if flat is None or len(flat) % 2:
            return None
        return [flat[k:k + 2] for k in range(0, len(flat), 2)]

    def check(self, inst: dict[str, Any], answer: list[list[int]]) -> str | None:
        if len(answer) > inst["limit"]:
            return f"{len(answer)} steps; the budget is {inst['limit']}"
        clauses = [frozenset(c) for c in inst["clauses"]]
        return replay(clauses, [(i - 1, j - 1) for i, j in answer])[1]

    def corrupt(self, inst: dict[str, Any], answer: list[list[int]], rng: random.Random) -> list[list[int]]:
        wrong = [list(s) for s in answer]
        del wrong[rng.randrange(len(wrong))]  # one step left out: later numbers point elsewhere, or no empty clause
        return wrong

    def baseline_no_steps(self, inst: dict[str, Any], rng: random.Random) -> list[list[int]]:
        return []

    def baseline_greedy(self, inst: dict[str, Any], rng: random.Random) -> list[list[int]]:
        have = [frozenset(c) for c in inst["clauses"]]
        steps: list[list[int]] = []
        while len(steps) < inst["limit"]:
            found = next(((i, j) for i, j in itertools.combinations(range(len(have)), 2)
                          if (r := resolvent(have[i], have[j])) is not None and r not in have), None)
            if found is None:
                break
            have.append(resolvent(have[found[0]], have[found[1]]))  # type: ignore[arg-type]
            steps.append([found[0] + 1, found[1] + 1])
            if not have[-1]:
                break
        return steps

    def baseline_unit(self, inst: dict[str, Any], rng: random.Random) -> list[list[int]]:
        have = [frozenset(c) for c in inst["clauses"]]
        steps: list[list[int]] = []
        while len(steps) < inst["limit"]:
            found = next(((i, j) for i in range(len(have)) if len(have[i]) == 1 for j in range(len(have))
                          if (r := resolvent(have[i], have[j])) is not None and r not in have), None)
            if found is None:
                break
            have.append(resolvent(have[found[0]], have[found[1]]))  # type: ignore[arg-type]
            steps.append([found[0] + 1, found[1] + 1])
            if not have[-1]:
                break
        return steps
