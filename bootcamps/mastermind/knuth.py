"""Knuth's minimax strategy (1977): guess the code whose worst feedback class leaves the fewest candidates.

Ties go to a code that is still a candidate, then to the first code in lexicographic order; with 4 pegs and
6 colours this opens with AABB and never needs more than 5 guesses. Feedback for every pair of codes is
precomputed once per (pegs, colours) as byte rows: black and white from per-position matches and colour counts.
"""
from __future__ import annotations

import functools
import itertools
import operator
from collections import Counter
from collections.abc import Iterable

CANON = "ABCDEFGHIJ"  # the strategy's own letters; a task's colours map onto them in order


class Knuth:
    """The strategy for one (pegs, number of colours); `Knuth.of(pegs, colours)` shares one table per process.
    Codes here use the letters A, B, C...; `in_colours` maps a task's own colour letters onto them."""

    def __init__(self, pegs: int, colours: int):
        self.pegs, self.colours = pegs, colours
        self.codes = ["".join(p) for p in itertools.product(CANON[:colours], repeat=pegs)]
        self.index = {code: i for i, code in enumerate(self.codes)}
        self.rows = self._table()

    @staticmethod
    @functools.cache
    def of(pegs: int, colours: int) -> Knuth:
        return Knuth(pegs, colours)

    def _table(self) -> list[bytes]:
        """rows[a][b] = black * (pegs + 1) + white for secret a and guess b (symmetric).

        Whole rows are added as big integers, one byte per code (values stay below 256, so bytes never carry):
        black pegs from one 0/1 mask per (position, colour), black + white from the colour counts."""
        n, pegs = len(self.codes), self.pegs
        counts = [tuple(code.count(c) for c in CANON[: self.colours]) for code in self.codes]
        kinds = sorted(set(counts))
        kind_id = {k: i for i, k in enumerate(kinds)}
        kind_of = [kind_id[c] for c in counts]
        kind_bytes = bytes(kind_of)  # fewer than 256 kinds for every supported size
        common = [int.from_bytes(kind_bytes.translate(bytes(sum(map(min, a, b)) for b in kinds).ljust(256, b"\0")),
                                 "big") for a in kinds]
        masks = [[int.from_bytes(bytes(code[p] == c for code in self.codes), "big") for c in CANON[: self.colours]]
                 for p in range(pegs)]
        rows = []
        for i, code in enumerate(self.codes):
            black = sum(masks[p][ord(c) - 65] for p, c in enumerate(code))
            # black * (pegs + 1) + white, with white = common - black
            rows.append((black * pegs + common[kind_of[i]]).to_bytes(n, "big"))
        return rows

    def mark(self, secret: str, guess: str) -> int:
        return self.rows[self.index[secret]][self.index[guess]]

    def candidates(self, history: Iterable[tuple[str, tuple[int, int]]]) -> list[int]:
        """Indices of the codes consistent with every (guess, (black, white)) so far."""
        alive = range(len(self.codes))
        for guess, (black, white) in history:
            row = self.rows[self.index[guess]]
            want = black * (self.pegs + 1) + white
            alive = [s for s in alive if row[s] == want]
        return list(alive)

    def next_guess(self, history: Iterable[tuple[str, tuple[int, int]]]) -> str:
        """Knuth's next guess after `history`."""
        return self.codes[self._choose(tuple(self.candidates(history)))]

    @functools.lru_cache(maxsize=4096)  # noqa: B019  (one Knuth per (pegs, colours), kept for the process)
    def _choose(self, alive: tuple[int, ...]) -> int:
        if len(alive) <= 2:
            return alive[0]
        members = set(alive)
        pick = operator.itemgetter(*alive)  # the marks of one guess against every live code, in C
        best, best_key = 0, None
        for g in self._openings() if len(alive) == len(self.codes) else range(len(self.codes)):
            worst = max(Counter(pick(self.rows[g])).values())
            key = (worst, g not in members, g)
            if best_key is None or key < best_key:
                best, best_key = g, key
        return best

    @functools.cache  # noqa: B019
    def _openings(self) -> list[int]:
        """Before any feedback every code is alike up to renaming colours and reordering pegs, so only the first
        code of each such class competes: sorted, colours in order, counts not increasing (AABB, AABC, ...)."""
        out = []
        for i, code in enumerate(self.codes):
            counts = [code.count(c) for c in CANON[: self.colours]]
            used = [k for k in counts if k]
            if list(code) == sorted(code) and counts[: len(used)] == used and used == sorted(used, reverse=True):
                out.append(i)
        return out

    @staticmethod
    def translation(colours: str) -> tuple[dict[int, int], dict[int, int]]:
        """str.translate tables from a task's colour letters to the strategy's, and back."""
        there = str.maketrans(colours, CANON[: len(colours)])
        back = str.maketrans(CANON[: len(colours)], colours)
        return there, back

    def play(self, secret: str, limit: int = 20) -> list[str]:
        """The guesses Knuth's strategy makes against `secret` (the last one is the secret)."""
        history: list[tuple[str, tuple[int, int]]] = []
        while len(history) < limit:
            guess = self.next_guess(history)
            m = self.mark(secret, guess)
            history.append((guess, divmod(m, self.pegs + 1)))
            if guess == secret:
                break
        return [g for g, _ in history]
