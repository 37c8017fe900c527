"""CNF in a few helpers over pycosat (PicoSAT): variables, cardinality (Sinz's sequential counter), tables of allowed
tuples, and the uniqueness proof every generator runs (solve, block that solution, solve again).

>>> cnf = CNF(); a, b, c = cnf.new(3); cnf.exactly([a, b, c], 2); cnf.add([-a])
>>> sorted(l for l in solve(cnf.clauses) if l > 0)
[2, 3]
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import pycosat

Clause = list[int]


class CNF:
    """A growing clause list and its variable counter."""

    def __init__(self) -> None:
        self.count = 0
        self.clauses: list[Clause] = []

    def new(self, k: int = 1) -> list[int]:
        """`k` fresh variables."""
        first = self.count + 1
        self.count += k
        return list(range(first, self.count + 1))

    def var(self) -> int:
        return self.new(1)[0]

    def add(self, clause: Iterable[int]) -> None:
        self.clauses.append(list(clause))

    def at_most(self, lits: Sequence[int], k: int) -> None:
        """At most `k` of `lits` are true (pairwise for k = 1 on a few literals, else a sequential counter)."""
        n = len(lits)
        if k >= n:
            return
        if k <= 0:
            self.clauses.extend([-x] for x in lits)
            return
        if k == 1 and n <= 6:
            self.clauses.extend([-lits[i], -lits[j]] for i in range(n) for j in range(i + 1, n))
            return
        # s[i][j]: at least j+1 of lits[0..i] are true
        s = [self.new(k) for _ in range(n - 1)]
        self.add([-lits[0], s[0][0]])
        self.clauses.extend([-s[0][j]] for j in range(1, k))
        for i in range(1, n - 1):
            x = lits[i]
            self.add([-x, s[i][0]])
            self.add([-s[i - 1][0], s[i][0]])
            for j in range(1, k):
                self.add([-x, -s[i - 1][j - 1], s[i][j]])
                self.add([-s[i - 1][j], s[i][j]])
            self.add([-x, -s[i - 1][k - 1]])
        self.add([-lits[n - 1], -s[n - 2][k - 1]])

    def at_least(self, lits: Sequence[int], k: int) -> None:
        if k <= 0:
            return
        if k == 1:
            self.add(lits)
            return
        self.at_most([-x for x in lits], len(lits) - k)

    def exactly(self, lits: Sequence[int], k: int) -> None:
        """Exactly `k` of `lits` are true (no solution when k is out of 0..len)."""
        if not 0 <= k <= len(lits):
            self.add([])
            return
        self.at_most(lits, k)
        self.at_least(lits, k)

    def exactly_one(self, lits: Sequence[int]) -> None:
        self.exactly(lits, 1)

    def table(self, cells: Sequence[Callable[[int], int]] | Sequence[dict[int, int]],
              tuples: Iterable[Sequence[int]]) -> None:
        """The cells take one of `tuples` together: `cells[i][v]` is the literal "cell i holds v"."""
        choices = []
        for t in tuples:
            s = self.var()
            choices.append(s)
            self.clauses.extend([-s, cells[i][v]] for i, v in enumerate(t))
        self.add(choices)


def solve(clauses: list[Clause]) -> set[int] | None:
    """A model as the set of its true and false literals, or None when unsatisfiable."""
    found = pycosat.solve(clauses)
    return set(found) if isinstance(found, list) else None


def block(model: set[int], shown: Iterable[int]) -> Clause:
    """The clause that rules out `model`'s values on the `shown` variables (the puzzle's answer)."""
    return [-v if v in model else v for v in shown]


def unique(clauses: list[Clause], model: set[int], shown: Iterable[int]) -> bool:
    """Whether `model` is the only assignment of `shown` that satisfies `clauses` (the uniqueness proof)."""
    return solve([*clauses, block(model, shown)]) is None


def one_hot(cnf: CNF, count: int, values: Sequence[int]) -> list[dict[int, int]]:
    """`count` cells, each holding exactly one of `values`: [{value: variable}] per cell."""
    cells = []
    for _ in range(count):
        lits = cnf.new(len(values))
        cnf.exactly_one(lits)
        cells.append(dict(zip(values, lits, strict=True)))
    return cells


def minimise(base: list[Clause], clues: dict[object, list[Clause]], model: set[int], shown: list[int],
             order: list[object], keep: float = 0.0, batch: int = 8) -> list[object] | None:
    """The clues (keys of `clues`) left after removing those of `order` while the solution stays unique, tried in
    batches of `batch` (a batch that cannot go is split in halves, down to single clues); then the first `keep`
    share of the removed ones are put back (an easier puzzle). None when the full clue set does not prove `model`
    unique. Clues not in `order` are always kept."""
    kept = set(clues)
    blocking = block(model, shown)

    def proves(keys: set[object]) -> bool:
        return solve([*base, *(c for k in clues if k in keys for c in clues[k]), blocking]) is None

    if not proves(kept):
        return None
    removed: list[object] = []

    def drop(keys: list[object]) -> None:
        if proves(kept - set(keys)):
            kept.difference_update(keys)
            removed.extend(keys)
        elif len(keys) > 1:
            drop(keys[: len(keys) // 2])
            drop(keys[len(keys) // 2:])

    for start in range(0, len(order), batch):
        drop(order[start:start + batch])
    kept.update(removed[: round(len(removed) * keep)])
    return [k for k in clues if k in kept]


def thin(base: list[Clause], clues: dict[object, list[Clause]], model: set[int], shown: list[int],
         candidates: list[object], share: float, rng: object, tries: int = 4) -> list[object]:
    """The clues left after removing a random `share` of `candidates` at once, the first of `tries` draws that
    keeps the solution unique (one SAT call each; every clue kept when none does). `clues` must prove it unique."""
    blocking = block(model, shown)
    count = round(len(candidates) * share)
    for _ in range(tries if count else 0):
        gone = set(rng.sample(candidates, count))
        if solve([*base, *(c for k in clues if k not in gone for c in clues[k]), blocking]) is None:
            return [k for k in clues if k not in gone]
    return list(clues)
