"""Grades the answer to a chart question: the last <answer>...</answer> of the final assistant message."""
from __future__ import annotations

from typing import Any, ClassVar

from bc_common.answer_blocks import last_tagged
from bc_common.bootcamp import RewardCalculator
from bc_common.safe_eval import parse_number


def normalise(text: str) -> str:
    """Case, surrounding punctuation and inner runs of spaces do not matter: ' Oak  Increasing. ' == 'oak increasing'."""
    return " ".join(text.strip().strip(".!").split()).casefold()


class ChartReadRewardCalculator(RewardCalculator):
    """1.0 for the right integer, `NAME VALUE` or `NAME direction CHANGE`, else 0. Numbers are read with
    `parse_number` (`-7`, `−7` and `-7.0` are the same number); names are compared without case. Rows written
    before answers held a number (`NAME`, `NAME direction`) are graded by their own answer."""

    identity_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "required": ["kind", "x", "series", "question", "answer"],
        "properties": {
            "kind": {"enum": ["bar", "line", "scatter"]},
            "x": {"type": "array", "items": {"type": "string"}, "minItems": 2},
            "series": {"type": "array", "minItems": 1, "items": {
                "type": "object", "required": ["name", "values"],
                "properties": {"name": {"type": "string"}, "values": {"type": "array", "items": {"type": "integer"}}}}},
            "question": {"type": "object", "required": ["type"],
                         "properties": {"type": {"enum": ["largest", "difference", "trend"]}}},
            "answer": {"type": "string"},
        },
    }

    @staticmethod
    def extract_output(output_str: str) -> str | None:
        return last_tagged(output_str, max_length=200)

    @classmethod
    def _verify_correction(cls, extracted: str, identity: dict[str, Any], **kwargs: Any) -> bool:
        if identity["question"]["type"] == "difference":
            value = parse_number(extracted.strip())
            return value is not None and value == int(identity["answer"])
        expected, got = normalise(identity["answer"]).split(), normalise(extracted).split()
        if len(got) != len(expected) or got[:-1] != expected[:-1]:
            return False
        if expected[-1].lstrip("-").isdigit():  # the value read off the chart
            value = parse_number(got[-1])
            return value is not None and value == int(expected[-1])
        return got[-1] == expected[-1]
