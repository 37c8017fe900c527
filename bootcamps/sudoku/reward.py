"""Grades the final assistant text: the grid in the last <answer>...</answer> must be a complete sudoku (each
row, column and box holds 1-9 once) that keeps every given. Any such grid scores 1.0; none is stored."""
from __future__ import annotations

from typing import Any, ClassVar

from bc_common.answer_blocks import grid_lines, last_tagged
from bc_common.bootcamp import RewardCalculator

from .grid import violations

MAX_ANSWER = 4096  # a grid with spaces and box rules is under 300 characters


class SudokuRewardCalculator(RewardCalculator):
    """1.0 for a complete grid that breaks no rule and keeps every given, else 0 (only the last answer counts)."""

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

    @staticmethod
    def extract_output(output_str: str) -> list[str] | None:
        body = last_tagged(output_str, max_length=MAX_ANSWER)
        if body is None:
            return None
        return grid_lines(body) or None

    @classmethod
    def _verify_correction(cls, extracted: list[str], identity: dict[str, Any], **kwargs: Any) -> bool:
        return not violations(extracted, identity["givens"])
