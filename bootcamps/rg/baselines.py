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

from . import datasets

TRAINING_SAMPLE = 50  # items of the dataset the `frequent` baseline learns its answer from
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


@functools.cache
def frequent_answer(name: str, config_json: str) -> str:
    """The most frequent stored answer among `TRAINING_SAMPLE` fixed items of the dataset with these parameters
    (items drawn at coordinates no conformance or training row uses: seeds and indices counted down from 2^31)."""
    import orjson

    params = datasets.parse_params(name, orjson.loads(config_json), f"rg/{name} baseline")
    answers: Counter = Counter()
    for j in range(TRAINING_SAMPLE):
        if name in datasets.PER_ROW_SEED:
            coordinates = (2**31 - 1 - j, 1, 0)
        else:
            size = datasets.SIZE_LIMITS.get(name, datasets.FULL_SIZE)
            coordinates = (0, size, size - 1 - j)
        try:
            item = datasets.entry(name, params, *coordinates)
        except Exception:  # noqa: BLE001  (an item reasoning-gym cannot make teaches nothing)
            continue
        if item.get("answer") is not None:
            answers[str(item["answer"])] += 1
    return answers.most_common(1)[0][0] if answers else ""


def _reply(answer: str) -> dict[str, Any]:
    return {"role": "assistant", "content": f"<answer>{answer}</answer>"}


class FrequentAnswerPolicy(ReferencePolicy):
    """Baseline: the most frequent answer of the dataset's training sample, whatever the item."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        import orjson

        identity = self.identity  # rg/composite rows name the dataset they drew: its frequent answer
        config = orjson.dumps(identity.get("config") or {}, option=orjson.OPT_SORT_KEYS).decode()
        return _reply(frequent_answer(identity["dataset"], config))


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
    Baseline("frequent", FrequentAnswerPolicy, "the most frequent answer of 50 training items of the dataset"),
    Baseline("copy_number", CopyNumberPolicy, "the last number of the question"),
    Baseline("banana", BananaPolicy, "the word 'banana'"),
]
