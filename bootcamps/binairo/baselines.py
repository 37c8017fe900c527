"""Baselines: the cheap grids a lazy policy answers first. None breaks no rule on a generated puzzle."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import Baseline, ReferencePolicy
from bc_common.grids import CopyGivens, FillInOrder, RandomFill, grid_answer

from .rules import violations


class FirstLegalFill(FillInOrder):
    symbols = "01"
    violations = staticmethod(violations)


class RandomCells(RandomFill):
    symbols = "01"


class AlternatingRows(ReferencePolicy):
    """0101... and 1010... by turns, givens ignored: the example grid of the prompt, continued."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        n = self.identity["size"]
        rows = [("01" * n)[:n] if i % 2 == 0 else ("10" * n)[:n] for i in range(n)]
        return {"role": "assistant", "content": grid_answer(rows)}


BASELINES = [
    Baseline("copy", CopyGivens, "the puzzle answered as given, empty cells and all"),
    Baseline("first_legal", FirstLegalFill, "empty cells filled in reading order with the first value that breaks "
                                            "no rule yet, no backtracking"),
    Baseline("random", RandomCells, "every empty cell a random 0 or 1"),
    Baseline("alternating", AlternatingRows, "rows 0101... and 1010... by turns, the givens ignored"),
]
