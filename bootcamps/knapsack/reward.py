"""Grades a selection by the share of the gap it closes between the greedy heuristics' best value and the optimum;
0 when over the capacity or malformed."""
from __future__ import annotations

from typing import Any, ClassVar

from bc_common.answer_blocks import last_int_list
from bc_common.bootcamp import RewardCalculator

from .heuristics import heuristic_floor
from .solver import selection_problem, totals


def gap_closed(value: int, floor: int, optimum: int) -> float:
    """(value - floor) / (optimum - floor) clipped to [0, 1]: 1.0 only at the optimum, 0 at or below the floor."""
    if value >= optimum:
        return 1.0
    if optimum <= floor:  # a hand-made task that a heuristic already solves: only the optimum scores
        return 0.0
    return max(0.0, (value - floor) / (optimum - floor))


class KnapsackRewardCalculator(RewardCalculator):
    """The gap closed over the heuristics' floor for a feasible selection of distinct items (1.0 only at the
    optimum), else 0. Optimum and floor come from the identity (computed at generation), never from the model's
    text; an identity without a floor gets it computed."""

    identity_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "required": ["weights", "values", "capacity", "optimum"],
        "properties": {
            "weights": {"type": "array", "minItems": 1, "items": {"type": "integer", "minimum": 0}},
            "values": {"type": "array", "minItems": 1, "items": {"type": "integer", "minimum": 0}},
            "capacity": {"type": "integer", "minimum": 0},
            "optimum": {"type": "integer", "minimum": 1},
            "floor": {"type": "integer", "minimum": 0},
            "items": {"type": "array", "items": {"type": "integer"}},
        },
    }

    @staticmethod
    def extract_output(output_str: str) -> list[int] | None:
        return last_int_list(output_str, "items")

    @classmethod
    def _verify_correction(cls, extracted: list[int], identity: dict[str, Any], **kwargs: Any) -> float:
        weights, values, capacity = identity["weights"], identity["values"], identity["capacity"]
        if len(weights) != len(values) or selection_problem(extracted, weights, capacity):
            return 0.0
        floor = identity.get("floor")
        if floor is None:
            floor = heuristic_floor(weights, values, capacity)
        return gap_closed(totals(extracted, weights, values)[1], floor, identity["optimum"])
