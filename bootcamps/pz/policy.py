"""The reference policy (solve with the SAT encoding, answer) and the baselines every puzzle declares: the puzzle
answered as shown, random cells, and the puzzle's own lazy grid (its structural rules kept, its clues ignored)."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import Baseline, ReferencePolicy

from .puzzle import Grid, grid_text
from .puzzles import PUZZLES


def answer(grid: Grid) -> dict[str, Any]:
    return {"role": "assistant", "content": "<answer>\n" + grid_text(grid) + "\n</answer>"}


def corrupt(grid: Grid, start: Grid, blank: str, symbols: list[str], rng: Any) -> Grid:
    """The grid with one cell the puzzle leaves free changed to another symbol: the unique solution is no more."""
    free = [(i, j) for i, row in enumerate(start) for j, c in enumerate(row) if c == blank]
    i, j = rng.choice(free or [(0, 0)])
    out = [list(r) for r in grid]
    out[i][j] = rng.choice([s for s in symbols if s != grid[i][j]])
    return out


class PzPolicy(ReferencePolicy):
    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        puzzle = PUZZLES[self.identity["puzzle"]]
        grid = puzzle.solve(self.identity)
        if grid is None:  # generation proves a unique solution; a hand-made identity may have none
            return {"role": "assistant", "content": "This puzzle has no solution."}
        if wrong:
            grid = corrupt(grid, puzzle.start(self.identity), puzzle.blank, puzzle.symbols(self.identity), self.rng)
        return answer(grid)


class AsShown(ReferencePolicy):
    """Baseline: the puzzle answered as shown, free cells left blank."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        return answer(PUZZLES[self.identity["puzzle"]].start(self.identity))


class RandomCells(ReferencePolicy):
    """Baseline: every free cell a random symbol of the puzzle."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        puzzle = PUZZLES[self.identity["puzzle"]]
        symbols = puzzle.symbols(self.identity)
        grid = [[self.rng.choice(symbols) if c == puzzle.blank else c for c in row]
                for row in puzzle.start(self.identity)]
        return answer(grid)


class Lazy(ReferencePolicy):
    """Baseline: the puzzle's lazy grid (`Puzzle.lazy`)."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        return answer(PUZZLES[self.identity["puzzle"]].lazy(self.identity, self.rng))


def baselines(name: str) -> list[Baseline]:
    return [Baseline("as_shown", AsShown, "the puzzle answered as shown, free cells blank"),
            Baseline("random", RandomCells, "every free cell a random symbol of the puzzle"),
            Baseline("lazy", Lazy, PUZZLES[name].lazy_doc)]
