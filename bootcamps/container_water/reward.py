"""Grades the largest area: the last <answer>...</answer> of the final assistant message, an exact integer."""
from __future__ import annotations

from typing import Any, ClassVar

from bc_common.answer_blocks import last_tagged
from bc_common.bootcamp import RewardCalculator
from bc_common.safe_eval import parse_number


class ContainerWaterRewardCalculator(RewardCalculator):
    """1.0 when the number equals the maximum area computed from the identity's heights (not trusted from the
    stored `area`: the heights decide), else 0."""

    identity_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "required": ["heights"],
        "properties": {"heights": {"type": "array", "minItems": 2,
                                   "items": {"type": "integer", "minimum": 0}},
                       "area": {"type": "integer"}, "labelled": {"type": "boolean"}},
    }

    @staticmethod
    def extract_output(output_str: str) -> str | None:
        return last_tagged(output_str, max_length=100)

    @classmethod
    def _verify_correction(cls, extracted: str, identity: dict[str, Any], **kwargs: Any) -> bool:
        from .solver import max_area

        value = parse_number(extracted.strip())
        return value is not None and value == max_area(identity["heights"])[0]
