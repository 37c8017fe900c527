"""Grades a tour: the shortest length over the submitted tour's length; 0 for anything that is not a tour."""
from __future__ import annotations

import re
from typing import Any, ClassVar

from bc_common.bootcamp import RewardCalculator

from .solver import matrix, tour_length, tour_problem

# the last `{"tour": [...]}` object in the text; bounded, so linear on hostile text
_TOUR = re.compile(r'\{\s*"tour"\s*:\s*\[([^\[\]]{0,400})\]\s*\}')
_INT = re.compile(r"\s*([0-9]{1,4})\s*")


def parse_int_list(body: str) -> list[int] | None:
    """`1, 2, 3` -> [1, 2, 3]; None unless every item is a plain ASCII integer."""
    if not body.strip():
        return []
    out = []
    for item in body.split(","):
        m = _INT.fullmatch(item)
        if m is None:
            return None
        out.append(int(m[1]))
    return out


class TspRewardCalculator(RewardCalculator):
    """optimum / length for a closed tour through every city once (1.0 only at the optimum), else 0. The optimum
    comes from the identity (computed exactly at generation), never from the model's text."""

    identity_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "required": ["coords", "optimum"],
        "properties": {
            "coords": {"type": "array", "minItems": 2, "maxItems": 64,
                       "items": {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "integer"}}},
            "optimum": {"type": "integer", "minimum": 0},
            "tour": {"type": "array", "items": {"type": "integer"}},
        },
    }

    @staticmethod
    def extract_output(output_str: str) -> list[int] | None:
        found = _TOUR.findall(output_str)
        return parse_int_list(found[-1]) if found else None

    @classmethod
    def _verify_correction(cls, extracted: list[int], identity: dict[str, Any], **kwargs: Any) -> float:
        coords = identity["coords"]
        if tour_problem(extracted, len(coords)) is not None:
            return 0.0
        length = tour_length(extracted, matrix(coords))
        if length <= 0:
            return 1.0 if identity["optimum"] == 0 else 0.0
        return min(1.0, identity["optimum"] / length)
