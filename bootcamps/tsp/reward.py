"""Grades a tour by the share of the gap it closes between the heuristics' best length and the best known; 0 for
anything that is not a tour."""
from __future__ import annotations

from typing import Any, ClassVar

from bc_common.answer_blocks import last_int_list
from bc_common.bootcamp import RewardCalculator

from .heuristics import heuristic_floor
from .solver import matrix, tour_length, tour_problem


def gap_closed(length: int, floor: int, best: int) -> float:
    """(floor - length) / (floor - best) clipped to [0, 1]: 1.0 at the best known length or shorter, 0 at the
    floor or longer."""
    if length <= best:
        return 1.0
    if floor <= best:  # a hand-made task that a heuristic already solves: only a tour as short as the best scores
        return 0.0
    return max(0.0, (floor - length) / (floor - best))


class TspRewardCalculator(RewardCalculator):
    """The gap closed over the heuristics' floor for a closed tour through every city once (1.0 at the best known
    length or shorter), else 0. Best and floor come from the identity (computed at generation), never from the
    model's text; an identity without a floor gets it computed. Rows made before the best known replaced the
    exact optimum carry `optimum` instead of `best`, graded the same way."""

    identity_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "required": ["coords"],
        "anyOf": [{"required": ["best"]}, {"required": ["optimum"]}],
        "properties": {
            "coords": {"type": "array", "minItems": 2, "maxItems": 64,
                       "items": {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "integer"}}},
            "best": {"type": "integer", "minimum": 0},
            "optimum": {"type": "integer", "minimum": 0},
            "floor": {"type": "integer", "minimum": 0},
            "tour": {"type": "array", "items": {"type": "integer"}},
        },
    }

    @staticmethod
    def extract_output(output_str: str) -> list[int] | None:
        return last_int_list(output_str, "tour", max_chars=400)

    @classmethod
    def _verify_correction(cls, extracted: list[int], identity: dict[str, Any], **kwargs: Any) -> float:
        coords = identity["coords"]
        if tour_problem(extracted, len(coords)) is not None:
            return 0.0
        dist = matrix(coords)
        floor = identity.get("floor")
        if floor is None:
            floor = heuristic_floor(coords, dist)
        best = identity["best"] if "best" in identity else identity["optimum"]
        return gap_closed(tour_length(extracted, dist), floor, best)
