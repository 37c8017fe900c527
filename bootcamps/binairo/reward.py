"""Grades the final assistant text: the grid in the last <answer>...</answer> must obey every binairo rule
(`rules.violations`) and keep the givens. Any grid that does scores 1.0; nothing is compared to a stored grid."""
from __future__ import annotations

from typing import Any, ClassVar

from bc_common.grids import GridRewardCalculator

from .rules import violations


class BinairoRewardCalculator(GridRewardCalculator):
    """1.0 for a complete grid that breaks no rule and keeps every given, else 0 (only the last answer counts)."""

    violations = staticmethod(violations)
    max_answer = 8192  # a 14x14 grid with spaces is under 500 characters
    identity_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "required": ["size", "givens"],
        "additionalProperties": False,
        "properties": {
            "size": {"enum": [4, 6, 8, 10, 12, 14]},
            "givens": {"type": "array", "minItems": 4, "maxItems": 14,
                       "items": {"type": "string", "pattern": "^[01.]{4,14}$"}},
        },
    }

    @classmethod
    def _verify_correction(cls, extracted: list[str], identity: dict[str, Any], **kwargs: Any) -> bool:
        return len(identity["givens"]) == identity["size"] and super()._verify_correction(extracted, identity)
