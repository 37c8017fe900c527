"""The verifier (exact facts, by code) and the rubric: half the reward is the facts, half an LLM judge's coverage
and faithfulness."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from bc_common.answer_blocks import last_tagged
from bc_common.bootcamp import RewardCalculator
from bc_common.rubric import Component, JudgePrompt, Rubric

from .sheet import NUMERIC, fact_values, sheet_text

_NUMBER = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?")
MAX_SUMMARY_CHARS = 8000  # far above any summary within the word limits


def numbers_in(text: str) -> set[str]:
    """The numbers a text states, thousands separators dropped: `12,000` is `12000`."""
    return {m.group().replace(",", "") for m in _NUMBER.finditer(text)}


def states(text: str, key: str, value: str, numbers: set[str]) -> bool:
    if key in NUMERIC:
        return value in numbers
    return re.search(rf"(?<!\w){re.escape(value.lower())}(?!\w)", text.lower()) is not None


def facts_score(summary: str | None, identity: dict[str, Any]) -> float:
    """1.0 for a summary within the word limit that names the entity and states every required fact's exact
    value and no number the sheet lacks; else half the share of required facts stated (a number the sheet lacks
    counts as one more miss); 0 over the limit or without the entity."""
    if not summary or len(summary) > MAX_SUMMARY_CHARS or len(summary.split()) > identity["max_words"]:
        return 0.0
    if identity["entity"].lower() not in summary.lower():
        return 0.0
    values = fact_values(identity)
    numbers = numbers_in(summary)
    found = sum(states(summary, key, values[key], numbers) for key in identity["required"])
    invented = len(numbers - {values[k] for k in values if k in NUMERIC})
    if found == len(identity["required"]) and not invented:
        return 1.0
    return 0.5 * found / (len(identity["required"]) + invented)


def judge_context(identity: dict[str, Any]) -> dict[str, Any]:
    return {"sheet": sheet_text(identity), "max_words": identity["max_words"]}


JUDGE = JudgePrompt((Path(__file__).parent / "judge_prompt.txt").read_text(encoding="utf-8"),
                    criteria=("coverage", "faithfulness"), context=judge_context)


class FactSummaryRewardCalculator(RewardCalculator):
    identity_schema = {
        "type": "object", "required": ["entity", "sheet", "required", "max_words"],
        "properties": {"entity": {"type": "string"}, "sheet": {"type": "array"},
                       "required": {"type": "array", "items": {"type": "string"}},
                       "max_words": {"type": "integer", "minimum": 1}},
    }
    # the code checks the facts exactly; what code cannot check (the rest of the sheet conveyed, nothing made up
    # that is not a number) is the judge's
    rubric = Rubric((Component("facts", 0.5), Component("judge", 0.5, judge=JUDGE)))

    @staticmethod
    def extract_output(output_str: str) -> str | None:
        return last_tagged(output_str, "summary", max_length=MAX_SUMMARY_CHARS)

    @classmethod
    def _verify_correction(cls, extracted: Any, identity: dict[str, Any], **kwargs: Any) -> float:
        return facts_score(extracted, identity)
