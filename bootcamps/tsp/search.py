"""Local search for tours: 2-opt and Or-opt moves over each city's nearest neighbours (the textbook speed-ups:
neighbour lists and a queue of cities whose surroundings changed), and iterated local search (double-bridge kicks)
for the best known tour. Cities are 1-based; every function is deterministic for the same input and `rng`."""
from __future__ import annotations

import random
from collections import deque

NEIGHBOURS = 10  # candidate cities per city: moves only ever join a city to one of its 10 nearest


def neighbour_lists(dist: list[list[int]], k: int = NEIGHBOURS) -> list[list[int]]:
    """For each city (0-based), its k nearest other cities, nearest first (the lower number on a tie)."""
    n = len(dist)
    return [sorted((c for c in range(n) if c != a), key=lambda c: (dist[a][c], c))[:k] for a in range(n)]


class _Tour:
    """A cyclic tour of 0-based cities with each city's position, for O(1) successor and predecessor."""

    def __init__(self, cities: list[int]):
        self.order = list(cities)
        self.pos = [0] * len(cities)
        self._index()

    def _index(self) -> None:
        for i, c in enumerate(self.order):
            self.pos[c] = i

    def succ(self, c: int) -> int:
        return self.order[(self.pos[c] + 1) % len(self.order)]

    def pred(self, c: int) -> int:
        return self.order[self.pos[c] - 1]

    def reverse(self, first: int, last: int) -> None:
        """Reverse the path from city `first` forward to city `last` (rotating the list so it does not wrap)."""
        start = self.pos[first]
        order = self.order[start:] + self.order[:start]
        span = (self.pos[last] - start) % len(order)
        order[: span + 1] = order[span::-1]
        self.order = order
        self._index()

    def move(self, segment: list[int], after: int, reverse: bool) -> None:
        """Take `segment` (consecutive cities, in tour order) out and put it right after city `after`."""
        taken = set(segment)
        order = [c for c in self.order if c not in taken]
        at = order.index(after) + 1
        order[at:at] = segment[::-1] if reverse else segment
        self.order = order
        self._index()


def local_search(tour: list[int], dist: list[list[int]], near: list[list[int]] | None = None,
                 active: list[int] | None = None) -> list[int]:
    """2-opt and Or-opt (a stretch of 1-3 cities moved elsewhere, either way round) until no move over the
    neighbour lists shortens the tour; `active` (1-based) limits the first look to those cities (after a kick)."""
    near = near or neighbour_lists(dist)
    t = _Tour([c - 1 for c in tour])
    queue = deque([c - 1 for c in active] if active is not None else t.order)
    queued = set(queue)
    while queue:
        a = queue.popleft()
        queued.discard(a)
        changed = _two_opt_move(t, a, dist, near) or _or_opt_move(t, a, dist, near)
        for c in changed or ():
            if c not in queued:
                queue.append(c)
                queued.add(c)
    return [c + 1 for c in t.order]


def _two_opt_move(t: _Tour, a: int, dist: list[list[int]], near: list[list[int]]) -> tuple[int, ...] | None:
    """The first 2-opt move that joins `a` to a near city and shortens the tour (applied), or None."""
    order, pos, n = t.order, t.pos, len(t.order)
    da = dist[a]
    for step in (1, -1):  # b follows a (forward) or precedes it (backward)
        b = order[(pos[a] + step) % n]
        dab = da[b]
        for c in near[a]:
            g = dab - da[c]
            if g <= 0:
                break
            e = order[(pos[c] + step) % n]
            if c == b or e == a:
                continue
            if g + dist[c][e] - dist[b][e] > 0:
                # forward: a b ... c e -> a c ... b e ; backward: e c ... b a -> e b ... c a
                if step == 1:
                    t.reverse(b, c)
                else:
                    t.reverse(c, b)
                return a, b, c, e
    return None


def _or_opt_move(t: _Tour, a: int, dist: list[list[int]], near: list[list[int]]) -> tuple[int, ...] | None:
    """The first move of a stretch of 1-3 cities starting at `a` (forward) next to a near city of `a` that
    shortens the tour (applied), or None."""
    order, pos, n = t.order, t.pos, len(t.order)
    i = pos[a]
    p = order[i - 1]
    da = dist[a]
    for size in (1, 2, 3):
        if size > n - 3:
            break
        segment = [order[(i + k) % n] for k in range(size)]
        last = segment[-1]
        nx = order[(i + size) % n]
        removed = dist[p][a] + dist[last][nx] - dist[p][nx]
        dl = dist[last]
        for c in near[a]:
            dca = da[c]
            if dca >= removed:
                break
            if c in segment:
                continue
            j = pos[c]
            # a joins c: c, a..last, succ(c) or pred(c), last..a, c
            for other, reverse in ((order[(j + 1) % n], False), (order[j - 1], True)):
                if other in segment:
                    continue
                if dca + dl[other] - dist[c][other] < removed:
                    # reverse: after pred(c) = other comes last..a, so a meets c; else after c comes a..last
                    t.move(segment, other if reverse else c, reverse=reverse)
                    return p, nx, a, last, c, other
    return None


def double_bridge(tour: list[int], rng: random.Random) -> tuple[list[int], list[int]]:
    """The classic kick local search cannot undo in one move: cut in 4 parts A B C D, join A C B D. Returns the
    new tour and the 8 cities at the cuts."""
    n = len(tour)
    i, j, k = sorted(rng.sample(range(1, n), 3))
    new = tour[:i] + tour[j:k] + tour[i:j] + tour[k:]
    ends = {tour[i - 1], tour[i], tour[j - 1], tour[j], tour[k - 1], tour[k % n], tour[0], tour[-1]}
    return new, sorted(ends)


def iterated_local_search(tour: list[int], dist: list[list[int]], rng: random.Random, kicks: int) -> list[int]:
    """Local search, then `kicks` double-bridge kicks each followed by local search around the cuts, keeping a
    tour when it is no longer (the strong search that sets a task's best known length)."""
    near = neighbour_lists(dist)
    best = local_search(tour, dist, near)
    best_length = _length(best, dist)
    for _ in range(kicks):
        kicked, ends = double_bridge(best, rng)
        candidate = local_search(kicked, dist, near, active=ends)
        length = _length(candidate, dist)
        if length <= best_length:
            best, best_length = candidate, length
    return best


def _length(tour: list[int], dist: list[list[int]]) -> int:
    n = len(tour)
    return sum(dist[tour[k] - 1][tour[(k + 1) % n] - 1] for k in range(n))
