"""Grades the final assistant text: the grid in the last <answer>...</answer> must keep every rule of the identity's
puzzle (`Puzzle.violations`). Any grid that does scores 1.0; nothing is compared to a stored grid."""
from __future__ import annotations

from typing import Any, ClassVar

from bc_common.bootcamp import RewardCalculator

from .puzzle import Grid, parse_answer
from .puzzles import PUZZLES


class PzRewardCalculator(RewardCalculator):
    """1.0 for a complete grid that breaks no rule of the puzzle, else 0 (only the last answer block counts)."""

    identity_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "required": ["puzzle", "size"],
        "properties": {"puzzle": {"enum": sorted(PUZZLES)}, "size": {"type": "integer", "minimum": 2,
                                                                      "maximum": 16}},
    }

    @staticmethod
    def extract_output(output_str: str) -> str:
        return output_str  # parsed in _verify_correction: a number grid and a letter grid split differently

    @classmethod
    def _verify_correction(cls, extracted: str, identity: dict[str, Any], **kwargs: Any) -> bool:
        puzzle = PUZZLES[identity["puzzle"]]
        grid: Grid | None = parse_answer(extracted, numbers=puzzle.numbers)
        return grid is not None and not puzzle.violations(grid, identity)
