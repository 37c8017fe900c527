"""Grades the final assistant text: the grid in the last <answer>...</answer> must be a complete sudoku (each
row, column and box holds 1-9 once) that keeps every given. Any such grid scores 1.0; none is stored."""
from __future__ import annotations

from typing import Any, ClassVar

from bc_common.grids import GridRewardCalculator

from .grid import violations


class SudokuRewardCalculator(GridRewardCalculator):
    """1.0 for a complete grid that breaks no rule and keeps every given, else 0 (only the last answer counts)."""

    violations = staticmethod(violations)
    max_answer = 4096  # a grid with spaces and box rules is under 300 characters
    identity_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "required": ["givens"],
        "additionalProperties": False,
        "properties": {
            "givens": {"type": "array", "minItems": 9, "maxItems": 9,
                       "items": {"type": "string", "pattern": "^[1-9.]{9}$"}},
            "level": {"enum": [1, 2, 3]},
        },
    }
