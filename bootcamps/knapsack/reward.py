"""Grades a selection: its total value over the best possible; 0 when over the capacity or malformed."""
from __future__ import annotations

import re
from typing import Any, ClassVar

from bc_common.bootcamp import RewardCalculator

from .solver import selection_problem, totals

# the last `{"items": [...]}` object in the text; bounded, so linear on hostile text
_ITEMS = re.compile(r'\{\s*"items"\s*:\s*\[([^\[\]]{0,600})\]\s*\}')
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


class KnapsackRewardCalculator(RewardCalculator):
    """value / optimum for a feasible selection of distinct items (1.0 only at the optimum), else 0. The optimum
    comes from the identity (exact DP at generation), never from the model's text."""

    identity_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "required": ["weights", "values", "capacity", "optimum"],
        "properties": {
            "weights": {"type": "array", "minItems": 1, "items": {"type": "integer", "minimum": 0}},
            "values": {"type": "array", "minItems": 1, "items": {"type": "integer", "minimum": 0}},
            "capacity": {"type": "integer", "minimum": 0},
            "optimum": {"type": "integer", "minimum": 1},
            "items": {"type": "array", "items": {"type": "integer"}},
        },
    }

    @staticmethod
    def extract_output(output_str: str) -> list[int] | None:
        found = _ITEMS.findall(output_str)
        return parse_int_list(found[-1]) if found else None

    @classmethod
    def _verify_correction(cls, extracted: list[int], identity: dict[str, Any], **kwargs: Any) -> float:
        weights, values = identity["weights"], identity["values"]
        if len(weights) != len(values) or selection_problem(extracted, weights, identity["capacity"]):
            return 0.0
        return min(1.0, totals(extracted, weights, values)[1] / identity["optimum"])
