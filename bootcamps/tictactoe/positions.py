"""Puzzle positions with a forced win planted in them: X's threats chained into a double threat, O's stones
scattered near the play. The generator checks every candidate (shortest win, the lazy rules) before keeping it."""
from __future__ import annotations

import random

from .puzzle import cells_of, has_line, shortest_win, windows


class _Plan:
    """Which cells must hold an X stone and which must stay empty; refuses a line that contradicts it."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.role: dict[int, str] = {}

    def need(self, window: tuple[int, ...], empty: tuple[int, ...], stones: int) -> bool:
        """`window` gets exactly `stones` X stones besides the cells in `empty`, which stay empty."""
        for cell in empty:
            if self.role.setdefault(cell, ".") != ".":
                return False
        have = sum(self.role.get(c) == "X" for c in window)
        free = [c for c in window if c not in self.role]
        want = stones - have
        if want < 0 or want > len(free):
            return False
        self.rng.shuffle(free)
        for i, cell in enumerate(free):
            self.role[cell] = "X" if i < want else "."
        return True


def _direction(window: tuple[int, ...]) -> int:
    return window[1] - window[0]


def plant(rng: random.Random, n: int, k: int, moves: int) -> tuple[int, int] | None:
    """(X's stones, O's stones) where X wins in at most `moves` moves (moves - 2 threats, a double threat, the
    win), or None when this draw of lines did not fit together."""
    through: dict[int, list[tuple[int, ...]]] = {}
    for window in windows(n, k):
        for cell in window:
            through.setdefault(cell, []).append(window)
    plan = _Plan(rng)
    fork = rng.randrange(n * n)
    if len(through[fork]) < 2:
        return None
    second, first = rng.sample(through[fork], 2)  # the double threat: two lines through the fork cell
    if _direction(first) == _direction(second):
        return None
    if not plan.need(second, (fork, rng.choice([c for c in second if c != fork])), k - 2):
        return None
    threat = rng.choice([c for c in first if c != fork and plan.role.get(c) != "X"])
    gaps = [c for c in first if c not in (fork, threat) and plan.role.get(c) != "X"]
    if not gaps or not plan.need(first, (fork, threat, rng.choice(gaps)), k - 3):
        return None
    line = first
    for step in range(moves - 2):  # each earlier threat also lays a stone on the next line of the chain
        options = [w for w in through[threat] if _direction(w) != _direction(line)]
        if not options:
            return None
        line = rng.choice(options)
        block = rng.choice([c for c in line if c != threat])
        if step == moves - 3:
            if not plan.need(line, (threat, block), k - 2):
                return None
        else:
            earlier = rng.choice([c for c in line if c not in (threat, block)])
            if not plan.need(line, (threat, block, earlier), k - 3):
                return None
            threat = earlier
    x = sum(1 << c for c, r in plan.role.items() if r == "X")
    o = _scatter(rng, n, k, moves, x, [c for c in range(n * n) if c not in plan.role], plan.role)
    return (x, o) if o.bit_count() == x.bit_count() else None


def _scatter(rng: random.Random, n: int, k: int, moves: int, x: int, free: list[int], role: dict) -> int:
    """As many O stones as X has, mostly next to stones; a stone goes first where X would win sooner."""
    o = 0
    for _ in range(x.bit_count()):
        sooner = shortest_win(x, o, n, k, moves - 1)
        if sooner is not None and sooner[1] not in role and sooner[1] in free:
            cell = sooner[1]
        else:
            stones = cells_of(x | o)
            near = [c for c in free if any(abs(c // n - s // n) <= 1 and abs(c % n - s % n) <= 1 for s in stones)]
            pool = near if near and rng.random() < 0.8 else free
            if not pool:
                break
            cell = rng.choice(pool)
        free.remove(cell)
        if has_line(o | 1 << cell, n, k):
            break
        o |= 1 << cell
    return o
