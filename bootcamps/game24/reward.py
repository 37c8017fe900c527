"""Grades the final assistant text: the expression in the last <answer>...</answer> must use every given number
exactly once (+ - × ÷ and parentheses only) and equal the target exactly. Any such expression scores 1.0."""
from __future__ import annotations

from typing import Any, ClassVar

from bc_common.answer_blocks import last_tagged
from bc_common.bootcamp import RewardCalculator

from .rules import MAX_LENGTH, check_expression


class Game24RewardCalculator(RewardCalculator):
    """1.0 when the answer obeys the rule of `rules.check_expression` (the same rule the generator's proof
    passes), else 0. Only the last answer block counts: spraying guesses does not help."""

    identity_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "required": ["numbers", "target"],
        "additionalProperties": False,
        "properties": {
            "numbers": {"type": "array", "minItems": 2, "maxItems": 6,
                        "items": {"type": "integer", "minimum": 1, "maximum": 1000}},
            "target": {"type": "integer", "minimum": 1, "maximum": 100000},
        },
    }

    @staticmethod
    def extract_output(output_str: str) -> str | None:
        body = last_tagged(output_str, max_length=MAX_LENGTH)
        return body.strip() if body is not None and body.strip() else None

    @classmethod
    def _verify_correction(cls, extracted: str, identity: dict[str, Any], **kwargs: Any) -> bool:
        return check_expression(extracted, identity["numbers"], identity["target"]) is None
