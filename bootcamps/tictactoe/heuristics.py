"""The one-move rules a lazy policy plays first, each as the set of cells it would choose for X (it picks one at
random). The generator keeps only puzzles none of them solves; the baselines play them."""
from __future__ import annotations

from collections.abc import Callable

from .puzzle import cell_worth, cells_of, defender_move, empty_cells, fork_mask, has_line, wins_mask

Rule = Callable[[int, int, int, int], list[int]]  # (X's stones, O's stones, n, k) -> cells


def nearest_centre(x: int, o: int, n: int) -> list[int]:
    """The empty cells nearest the centre of the board."""
    mid = (n - 1) / 2
    distance = {c: (c // n - mid) ** 2 + (c % n - mid) ** 2 for c in empty_cells(x, o, n)}
    best = min(distance.values())
    return [c for c, d in distance.items() if d == best]


def win_block_centre(x: int, o: int, n: int, k: int) -> list[int]:
    """Take a win, else block O's win, else the free cell nearest the centre."""
    return cells_of(wins_mask(x, o, n, k) or wins_mask(o, x, n, k)) or nearest_centre(x, o, n)


def win_block_fork(x: int, o: int, n: int, k: int) -> list[int]:
    """Win, block, make two threats at once, block O's two threats, else the centre (Newell and Simon's rules)."""
    return cells_of(wins_mask(x, o, n, k) or wins_mask(o, x, n, k) or fork_mask(x, o, n, k)
                    or fork_mask(o, x, n, k)) or nearest_centre(x, o, n)


def greedy_threat(x: int, o: int, n: int, k: int) -> list[int]:
    """Win, block, else the cell that makes the most threats, longest lines first (extend your best line)."""
    found = cells_of(wins_mask(x, o, n, k) or wins_mask(o, x, n, k))
    if found:
        return found
    score = {c: (wins_mask(x | 1 << c, o, n, k).bit_count(), cell_worth(x, o, n, k, c))
             for c in empty_cells(x, o, n)}
    best = max(score.values())
    return [c for c, s in score.items() if s == best]


def random_cell(x: int, o: int, n: int, k: int) -> list[int]:
    """Any empty cell."""
    return empty_cells(x, o, n)


def first_free(x: int, o: int, n: int, k: int) -> list[int]:
    """The empty cell with the lowest number."""
    return empty_cells(x, o, n)[:1]


RULES: dict[str, Rule] = {"win_block_centre": win_block_centre, "win_block_fork": win_block_fork,
                          "greedy_threat": greedy_threat, "random": random_cell, "first_free": first_free}
# the rules the generator checks exactly (random play is too wide to enumerate; it is measured instead)
FILTERED = ("win_block_centre", "win_block_fork", "greedy_threat", "first_free")


def success_chance(rule: str, n: int, k: int, moves: int, seed: int, x: int, o: int) -> float:
    """The chance that `rule`, picking uniformly among its cells every move, wins within `moves` X moves against
    the defender keyed by `seed` (exact: every pick is followed)."""
    cells = RULES[rule](x, o, n, k)
    total = 0.0
    for cell in cells:
        after = x | 1 << cell
        if has_line(after, n, k):
            total += 1.0
            continue
        if moves <= 1 or not empty_cells(after, o, n):
            continue
        reply = o | 1 << defender_move(after, o, n, k, seed)
        if has_line(reply, n, k) or not empty_cells(after, reply, n):
            continue
        total += success_chance(rule, n, k, moves - 1, seed, after, reply)
    return total / len(cells)
