"""ta/lights_out: TextArena's LightsOut (a press toggles a light and its four neighbours; turn them all off) with
exactly the presses the shortest solution needs.

TextArena gives 50 moves, so a wrong press is simply pressed again; here `max_turns` is the length of the
shortest solution of the drawn grid (found over GF(2) when the task is made), so every press must be right."""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from bc_common.bootcamp import Baseline, Group, ReferencePolicy, assistant_texts

from ..arena import Match
from ..game import Game
from ..play import replay


@dataclass
class Config:
    size: int = 5  # the grid is size x size; TextArena scrambles it with 5-15 random presses

    def validate(self) -> None:
        if not 4 <= self.size <= 8:
            raise ValueError("size must be in [4, 8]")


def press_mask(size: int, row: int, col: int) -> int:
    """The lights one press toggles, as bits (bit r*size+c)."""
    mask = 0
    for dr, dc in ((0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)):
        r, c = row + dr, col + dc
        if 0 <= r < size and 0 <= c < size:
            mask |= 1 << (r * size + c)
    return mask


def grid_bits(grid: list[list[bool]]) -> int:
    return sum(1 << (r * len(grid) + c) for r, row in enumerate(grid) for c, lit in enumerate(row) if lit)


def shortest_solution(grid: list[list[bool]]) -> list[tuple[int, int]] | None:
    """The fewest presses that turn every light off (row-major order), or None when no presses do: Gaussian
    elimination over GF(2), then the best of the null space's combinations."""
    size = len(grid)
    cells = size * size
    # one row per light: which presses toggle it (bits 0..cells-1) and whether it is lit (bit `cells`)
    rows = [sum(1 << p for p in range(cells) if press_mask(size, *divmod(p, size)) >> light & 1)
            | ((grid_bits(grid) >> light & 1) << cells) for light in range(cells)]
    pivots: list[int] = []
    rank = 0
    for col in range(cells):
        pick = next((i for i in range(rank, cells) if rows[i] >> col & 1), None)
        if pick is None:
            continue
        rows[rank], rows[pick] = rows[pick], rows[rank]
        for i in range(cells):
            if i != rank and rows[i] >> col & 1:
                rows[i] ^= rows[rank]
        pivots.append(col)
        rank += 1
    if any(rows[i] >> cells & 1 for i in range(rank, cells)):
        return None
    particular = sum(1 << col for i, col in enumerate(pivots) if rows[i] >> cells & 1)
    free = [col for col in range(cells) if col not in pivots]
    basis = []
    for f in free:
        vector = 1 << f
        for i, col in enumerate(pivots):
            if rows[i] >> f & 1:
                vector |= 1 << col
        basis.append(vector)
    best = particular
    for pick in range(1, 1 << len(basis)):
        candidate = particular
        for k, vector in enumerate(basis):
            if pick >> k & 1:
                candidate ^= vector
        if bin(candidate).count("1") < bin(best).count("1"):
            best = candidate
    return [divmod(p, size) for p in range(cells) if best >> p & 1]


def draw(rng: random.Random, config: Config, seed: int) -> dict[str, Any] | None:
    grid = Match("LightsOut-v0", {"size": config.size}, seed, 1).game_state["grid"]
    presses = shortest_solution(grid)
    if not presses:  # TextArena's scramble undid itself: nothing to solve; the generator draws another seed
        return None
    return {"size": config.size, "max_turns": len(presses)}


class _Presser(ReferencePolicy):
    def choose(self, grid: list[list[bool]]) -> tuple[int, int]:
        raise NotImplementedError

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        grid = replay(self.identity, assistant_texts(messages)).match.game_state["grid"]
        if wrong:  # a press outside the shortest solution: it has to be undone, and there is no move to spare
            needed = set(shortest_solution(grid) or [])
            row, col = next((r, c) for r in range(len(grid)) for c in range(len(grid)) if (r, c) not in needed)
        else:
            row, col = self.choose(grid)
        return {"role": "assistant", "content": f"[{row} {col}]"}


class Shortest(_Presser):
    """The first press of the shortest solution of the grid it sees."""

    def choose(self, grid: list[list[bool]]) -> tuple[int, int]:
        return (shortest_solution(grid) or [(0, 0)])[0]


class RandomPress(_Presser):
    """Baseline: a random cell."""

    def choose(self, grid: list[list[bool]]) -> tuple[int, int]:
        return self.rng.randrange(len(grid)), self.rng.randrange(len(grid))


class PressLit(_Presser):
    """Baseline: the first lit cell (row by row)."""

    def choose(self, grid: list[list[bool]]) -> tuple[int, int]:
        return next(((r, c) for r, row in enumerate(grid) for c, lit in enumerate(row) if lit), (0, 0))


GAME = Game(
    name="lights_out", env_id="LightsOut-v0", players=1,
    about="TextArena LightsOut: turn every light off, each press toggling a cross, in exactly the presses the "
          "shortest solution needs.",
    config=Config, draw=draw,
    groups=[Group("5x5", {"size": 5}, ratio=0.34), Group("6x6", {"size": 6}, ratio=0.33),
            Group("7x7", {"size": 7}, ratio=0.33)],
    policy=Shortest,
    baselines=[Baseline("random", RandomPress, "a random cell"),
               Baseline("press_lit", PressLit, "the first lit cell, row by row")],
    answer_format="Reply with exactly one press and nothing else, as [row col], e.g. [0 3].",
    max_moves=40,
)
