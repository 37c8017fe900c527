"""Generic baselines of every rg/<dataset>: the answers a lazy policy finds first without reading the item well.

`frequent` answers the most frequent answer of a fixed training sample of the dataset (what a policy that learnt
the answer distribution, not the task, says); `copy_number` copies the last number of the question; `banana`
answers a word that answers nothing (a verifier that pays it pays any answer).
"""
from __future__ import annotations

import functools
import re
from collections import Counter
from typing import Any

from bc_common.bootcamp import Baseline, ReferencePolicy

from .balance import TRAINING_SAMPLE, config_key, training_answers

_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


@functools.cache
def frequent_answer(name: str, config_json: str) -> str:
    """The most frequent stored answer among the dataset's training sample (bootcamps/rg/balance.py)."""
    answers = Counter(training_answers(name, config_json))
    return answers.most_common(1)[0][0] if answers else ""


def _reply(answer: str) -> dict[str, Any]:
    return {"role": "assistant", "content": f"<answer>{answer}</answer>"}


class FrequentAnswerPolicy(ReferencePolicy):
    """Baseline: the most frequent answer of the dataset's training sample, whatever the item."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        identity = self.identity  # rg/composite rows name the dataset they drew: its frequent answer
        return _reply(frequent_answer(identity["dataset"], config_key(identity.get("config") or {})))


class CopyNumberPolicy(ReferencePolicy):
    """Baseline: copies the last number the question shows (or 0 when it shows none)."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        numbers = _NUMBER.findall(str(self.identity.get("question") or "")[-20000:])
        return _reply(numbers[-1] if numbers else "0")


class BananaPolicy(ReferencePolicy):
    """Baseline: an answer that answers nothing."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        return _reply("banana")


BASELINES = [
    Baseline("frequent", FrequentAnswerPolicy, f"the most frequent answer of {TRAINING_SAMPLE} training items of the dataset"),
    Baseline("copy_number", CopyNumberPolicy, "the last number of the question"),
    Baseline("banana", BananaPolicy, "the word 'banana'"),
]
