"""Grades a move sequence: shortest / length for a valid path from S to G (1.0 for any shortest path), 0 for a
path that crosses a wall, leaves the grid or does not end on G."""
from __future__ import annotations

import re
from typing import Any, ClassVar

from bc_common.answer_blocks import last_tagged
from bc_common.bootcamp import RewardCalculator

from .maze import decode, distances, walk

_MOVES = re.compile(r"[UDLRudlr](?:[\s,;]*[UDLRudlr])*")


class GridMazeRewardCalculator(RewardCalculator):
    identity_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "required": ["rows", "cols", "open", "start", "goal"],
        "properties": {
            "rows": {"type": "integer", "minimum": 1}, "cols": {"type": "integer", "minimum": 1},
            "open": {"type": "array", "items": {"type": "string", "pattern": "^[0-9a-f]+$"}},
            "start": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2},
            "goal": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2},
        },
    }

    @staticmethod
    def extract_output(output_str: str) -> str | None:
        """The moves of the last answer block as a string of U/D/L/R; None unless it holds moves only."""
        body = last_tagged(output_str, max_length=4000)
        if body is None:
            return None
        body = body.strip()
        if not _MOVES.fullmatch(body):
            return None
        return re.sub(r"[\s,;]", "", body).upper()

    @classmethod
    def _verify_correction(cls, extracted: str, identity: dict[str, Any], **kwargs: Any) -> float:
        open_ = decode(identity["open"])
        start, goal = tuple(identity["start"]), tuple(identity["goal"])
        if not extracted or walk(open_, start, extracted) != goal:
            return 0.0
        shortest = distances(open_, start)[goal][0]  # from the maze itself, not the stored figure
        return shortest / len(extracted)
