"""The verifier of every rc/<task>: reasoning-core's own `score_answer` on the last <answer>...</answer> block."""
from __future__ import annotations

import functools
from typing import Any

from bc_common.answer_blocks import last_tagged, number_bomb
from bc_common.bootcamp import RewardCalculator

from .tasks import quiet

MIN_ANSWER_LIMIT = 4096  # longer answers are not passed to reasoning-core's parsers (sympy, regex engines)
ANSWER_LIMIT_FACTOR = 16  # ... unless the stored answer is long itself: 16 times its length


def answer_block(text: str) -> str | None:
    """The text inside the last complete <answer>...</answer> block, stripped; None if there is none."""
    body = last_tagged(text, max_length=1 << 16)
    return None if body is None else body.strip()


def answer_limit(identity: dict[str, Any]) -> int:
    return max(MIN_ANSWER_LIMIT, ANSWER_LIMIT_FACTOR * len(str(identity.get("answer"))))


@functools.cache
def scorer(task: str) -> Any:
    """reasoning-core's scorer of `task` (its `score_answer`, called without the Task object, as it ships it)."""
    from reasoning_core import get_score_answer_fn

    with quiet():
        return get_score_answer_fn(task)


def score(identity: dict[str, Any], answer: str) -> float:
    """reasoning-core's score of `answer` for the item `identity` holds (booleans and numeric strings it
    returns are read as numbers; anything else it returns counts 0)."""
    from easydict import EasyDict

    entry = EasyDict({"answer": identity["answer"], "metadata": identity["metadata"], "task": identity["task"]})
    with quiet():
        value = scorer(identity["task"])(answer, entry)
    try:
        value = float(value or 0.0)
    except (TypeError, ValueError):
        return 0.0
    return min(max(value, 0.0), 1.0) if value == value else 0.0


class RCRewardCalculator(RewardCalculator):
    """Scores the final assistant message with reasoning-core's `score_answer` (partial credit where it gives it)."""

    identity_schema = {
        "type": "object",
        "required": ["task", "config", "level", "seed", "prompt", "answer", "metadata"],
        "properties": {
            "task": {"type": "string"}, "config": {"type": "object"}, "level": {"type": "integer"},
            "seed": {"type": "integer"}, "prompt": {"type": "string"}, "metadata": {"type": "object"},
        },
    }

    @staticmethod
    def extract_output(output_str: str) -> str | None:
        return answer_block(output_str)

    @classmethod
    def _verify_correction(cls, extracted: str, identity: dict[str, Any], **kwargs: Any) -> float:
        if len(extracted) > answer_limit(identity):
            return 0.0
        if number_bomb(extracted) and not number_bomb(str(identity.get("answer") or "")):
            return 0.0
        try:
            return score(identity, extracted)
        except Exception:  # noqa: BLE001  (a scorer that chokes on an answer does not accept it)
            return 0.0
