"""Baselines: the cheap grids a lazy policy answers first. None is a solution of a generated puzzle."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import Baseline, ReferencePolicy
from bc_common.grids import CopyGivens, FillInOrder, RandomFill, grid_answer

from .grid import violations


class FirstLegalFill(FillInOrder):
    symbols = "123456789"
    violations = staticmethod(violations)


class RandomDigits(RandomFill):
    symbols = "123456789"


class RowFill(ReferencePolicy):
    """Each row's missing digits written into its empty cells in increasing order: rows right, columns not."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        rows = []
        for row in self.identity["givens"]:
            missing = iter(sorted(set("123456789") - set(row)))
            rows.append("".join(next(missing, "1") if c == "." else c for c in row))
        return {"role": "assistant", "content": grid_answer(rows)}


BASELINES = [
    Baseline("copy", CopyGivens, "the puzzle answered as given, empty cells and all"),
    Baseline("first_legal", FirstLegalFill, "empty cells filled in reading order with the smallest digit that "
                                            "repeats nothing yet, no backtracking"),
    Baseline("row_fill", RowFill, "each row's missing digits in increasing order"),
    Baseline("random", RandomDigits, "every empty cell a random digit"),
]
