"""Grades a puzzle by the techniques a person needs: the level is the smallest set that solves it.

Level 1: naked and hidden singles. Level 2: adds locked candidates (pointing and claiming), naked pairs and
triples, hidden pairs. Level 3: these are not enough (harder chains, or trial and error).
A puzzle that pure deduction solves has exactly one solution (every step was forced).
"""
from __future__ import annotations

from itertools import combinations

from .grid import PEERS, UNITS

ALL = 0x1FF
# Where a box meets a row (or a column): segment s = 3 * line + k holds the 3 cells of that line in its k-th
# box along it. Each orientation lists its segments' cells, each line's 3 segments, and each box's 3 segments.
ROW_SEGMENTS = [[r * 9 + k * 3 + x for x in range(3)] for r in range(9) for k in range(3)]
COL_SEGMENTS = [[(k * 3 + x) * 9 + c for x in range(3)] for c in range(9) for k in range(3)]
LINE_TRIOS = [[3 * line + k for k in range(3)] for line in range(9)]
ROW_BOX_TRIOS = [[3 * (3 * (b // 3) + x) + b % 3 for x in range(3)] for b in range(9)]
COL_BOX_TRIOS = [[3 * (3 * (b % 3) + x) + b // 3 for x in range(3)] for b in range(9)]


class Stuck(Exception):
    """The givens contradict each other (no candidate left somewhere)."""


class Board:
    """Values and candidate bitmasks; `place` keeps the peers' candidates consistent."""

    def __init__(self, cells: list[int]):
        self.values = [0] * 81
        self.cands = [ALL] * 81
        for i, v in enumerate(cells):
            if v:
                self.place(i, v)

    def place(self, i: int, v: int) -> None:
        bit = 1 << (v - 1)
        if not self.cands[i] & bit:
            raise Stuck
        self.values[i] = v
        self.cands[i] = bit
        for p in PEERS[i]:
            if self.cands[p] & bit:
                if self.values[p]:
                    raise Stuck
                self.cands[p] &= ~bit

    def eliminate(self, cells, mask: int) -> bool:
        """Remove `mask` from the candidates of `cells` (empty ones); True when anything changed."""
        changed = False
        for i in cells:
            if not self.values[i] and self.cands[i] & mask:
                self.cands[i] &= ~mask
                if not self.cands[i]:
                    raise Stuck
                changed = True
        return changed

    def singles(self) -> bool:
        """Place every naked and hidden single until none is left; True when anything was placed."""
        progress = False
        while True:
            placed = False
            for i in range(81):
                if not self.values[i]:
                    c = self.cands[i]
                    if c == 0:
                        raise Stuck
                    if c & (c - 1) == 0:
                        self.place(i, c.bit_length())
                        placed = True
            for unit in UNITS:
                once = twice = 0
                for i in unit:
                    c = self.cands[i] if not self.values[i] else 0
                    twice |= once & c
                    once |= c
                only = once & ~twice
                if only:
                    for i in unit:
                        if not self.values[i] and self.cands[i] & only:
                            hit = self.cands[i] & only
                            if hit & (hit - 1):
                                raise Stuck  # two digits can only go in one cell
                            self.place(i, hit.bit_length())
                            placed = True
            if not placed:
                return progress
            progress = True

    def solved(self) -> bool:
        return all(self.values)

    def locked_candidates(self) -> bool:
        """Pointing and claiming: a digit whose candidates in a box lie in one of its segments leaves the rest
        of that segment's line; a digit whose candidates in a line lie in one segment leaves the rest of its box."""
        changed = False
        for cells, box_trios in ((ROW_SEGMENTS, ROW_BOX_TRIOS), (COL_SEGMENTS, COL_BOX_TRIOS)):
            union = [self._union(seg) for seg in cells]
            box_of = {s: trio for trio in box_trios for s in trio}
            for trios, across in ((box_trios, lambda s: LINE_TRIOS[s // 3]), (LINE_TRIOS, box_of.__getitem__)):
                for trio in trios:
                    for k, s in enumerate(trio):
                        only = union[s] & ~(union[trio[k - 1]] | union[trio[k - 2]])
                        if only:
                            for t in across(s):
                                if t != s:
                                    changed |= self.eliminate(cells[t], only)
        return changed

    def _union(self, cells: list[int]) -> int:
        u = 0
        for i in cells:
            if not self.values[i]:
                u |= self.cands[i]
        return u

    def subsets(self) -> bool:
        changed = False
        for unit in UNITS:
            empty = [i for i in unit if not self.values[i]]
            for size in (2, 3):  # naked pairs and triples: n cells sharing n candidates
                for group in combinations([i for i in empty if self.cands[i].bit_count() <= size], size):
                    mask = 0
                    for i in group:
                        mask |= self.cands[i]
                    if mask.bit_count() == size:
                        changed |= self.eliminate([i for i in empty if i not in group], mask)
            places = {d: [i for i in empty if self.cands[i] >> d & 1] for d in range(9)}
            pairs = [d for d, cells in places.items() if len(cells) == 2]
            for d1, d2 in combinations(pairs, 2):  # hidden pairs: two digits confined to the same two cells
                if places[d1] == places[d2]:
                    keep = (1 << d1) | (1 << d2)
                    for i in places[d1]:
                        if self.cands[i] & ~keep:
                            self.cands[i] &= keep
                            changed = True
        return changed


def solves(cells: list[int], level: int) -> bool:
    """True when the techniques of `level` (1 or 2) alone fill the whole grid."""
    try:
        board = Board(cells)
        while True:
            board.singles()
            if board.solved():
                return True
            if level < 2 or not (board.locked_candidates() or board.subsets()):
                return False
    except Stuck:
        return False


def grade(cells: list[int]) -> int:
    """1, 2 or 3: the smallest technique level that solves the puzzle (3: neither 1 nor 2 does)."""
    if solves(cells, 1):
        return 1
    return 2 if solves(cells, 2) else 3
