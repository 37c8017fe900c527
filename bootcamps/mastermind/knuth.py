"""Knuth's minimax strategy (1977): guess the code whose worst feedback class leaves the fewest candidates.

Ties go to a code that is still a candidate, then to the first code in lexicographic order; with 4 pegs and
6 colours this opens with AABB and never needs more than 5 guesses. Feedback for every pair of codes is
precomputed once per (pegs, colours) as byte rows: black and white from per-position matches and colour counts.
"""
from __future__ import annotations

import functools
import itertools
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
        """rows[a][b] = black * (pegs + 1) + white for secret a and guess b (symmetric)."""
        pegs, base = self.pegs, self.pegs + 1
        counts = [tuple(code.count(c) for c in CANON[: self.colours]) for code in self.codes]
        kinds = sorted(set(counts))
        kind_id = {k: i for i, k in enumerate(kinds)}
        kind_of = [kind_id[c] for c in counts]
        common = [[sum(map(min, a, b)) for b in kinds] for a in kinds]
        # codes with colour c at position p: black pegs are counted position by position
        at = [[[] for _ in range(self.colours)] for _ in range(pegs)]
        for i, code in enumerate(self.codes):
            for p, c in enumerate(code):
                at[p][ord(c) - 65].append(i)
        rows = []
        for i, code in enumerate(self.codes):
            black = [0] * len(self.codes)
            for p, c in enumerate(code):
                for j in at[p][ord(c) - 65]:
                    black[j] += 1
            com = common[kind_of[i]]
            rows.append(bytes(b * base + com[k] - b for b, k in zip(black, kind_of, strict=True)))
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
        best, best_key = 0, None
        for g, row in enumerate(self.rows):
            worst = max(Counter(map(row.__getitem__, alive)).values())
            key = (worst, g not in members, g)
            if best_key is None or key < best_key:
                best, best_key = g, key
        return best

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
