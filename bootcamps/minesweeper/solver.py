"""The logic solver: which hidden cells are certainly safe (or mines) given only what has been revealed.

Rules, applied to a fixpoint: a number whose mines are all found makes its other hidden neighbours safe; a
number with as many hidden neighbours as missing mines makes them all mines; for two numbers whose hidden
neighbourhoods nest, the difference holds exactly the difference of their missing mines; and the total mine
count settles the rest when it can. It never guesses: a board it clears from the start cell needs no guess.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .board import Board, neighbours


@dataclass
class Deduction:
    safe: set[tuple[int, int]] = field(default_factory=set)
    mines: set[tuple[int, int]] = field(default_factory=set)


def deduce(rows: int, cols: int, seen: dict[tuple[int, int], int], total_mines: int) -> Deduction:
    """Hidden cells proven safe and proven mines, from the revealed numbers `seen` and the mine total."""
    out = Deduction()
    hidden = {(r, c) for r in range(1, rows + 1) for c in range(1, cols + 1)} - seen.keys()
    # only numbers that touch a hidden cell say anything: (number, its hidden neighbours)
    frontier = [(number, [n for n in neighbours(rows, cols, cell) if n in hidden]) for cell, number in seen.items()]
    frontier = [(number, near) for number, near in frontier if near]
    changed = True
    while changed:
        changed = False
        constraints: dict[frozenset, int] = {}
        for number, near in frontier:
            unknown = frozenset(n for n in near if n not in out.safe and n not in out.mines)
            if unknown:
                constraints[unknown] = number - sum(n in out.mines for n in near)
        for unknown, need in constraints.items():
            changed |= _settle(out, unknown, need)
        holding: dict[tuple[int, int], list[frozenset]] = {}  # cell -> the constraints that contain it
        for unknown in constraints:
            for cell in unknown:
                holding.setdefault(cell, []).append(unknown)
        for small, n_small in constraints.items():
            for big in holding[next(iter(small))]:  # a superset of `small` holds any one of its cells
                if len(big) > len(small) and small < big:
                    changed |= _settle(out, big - small, constraints[big] - n_small)
        unknown = frozenset(hidden - out.safe - out.mines)
        if unknown:
            changed |= _settle(out, unknown, total_mines - len(out.mines))
    return out


def _settle(out: Deduction, cells: frozenset, mines: int) -> bool:
    """`cells` hold exactly `mines` mines: settle them when that decides every one. Cells proven during this
    pass are taken out first (a proven mine also lowers the count)."""
    mines -= len(cells & out.mines)
    cells = cells - out.safe - out.mines
    if not cells:
        return False
    if mines == 0:
        out.safe |= cells
        return True
    if mines == len(cells):
        out.mines |= cells
        return True
    return False


@dataclass
class Solution:
    """How the solver clears a board from its start cell: the reveal rounds (each one batch of safe cells)."""

    cleared: bool
    rounds: list[list[tuple[int, int]]]

    @property
    def reveals(self) -> int:
        return sum(len(r) for r in self.rounds)


def solve(identity: dict, max_rounds: int = 1000) -> Solution:
    """Play the board by logic alone: reveal the start cell, then every cell proven safe, round by round."""
    board = Board.of(identity)
    rounds = [[tuple(identity["start"])]]
    board.reveal(*identity["start"])
    while board.result == "playing" and len(rounds) < max_rounds:
        safe = deduce(board.rows, board.cols, board.visible(), len(board.mines)).safe - board.revealed
        if not safe:
            return Solution(False, rounds)
        batch = sorted(safe)
        rounds.append(batch)
        for cell in batch:
            if board.result == "playing":  # the batch's last reveals may come after the win
                board.reveal(*cell)
    return Solution(board.result == "won", rounds)
