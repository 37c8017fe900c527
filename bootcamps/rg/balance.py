"""The answer balance of every rg/<dataset> (bc_common.answer_balance): the stored answers of a fixed training
sample of the dataset's items, and the acceptance that flattens them. The `frequent` baseline learns its answer
from the same sample."""
from __future__ import annotations

import functools
from typing import Any

import orjson

from bc_common.answer_balance import AnswerBalance

from . import datasets

TRAINING_SAMPLE = 100  # items of the dataset the balance (and the `frequent` baseline) learn the answers from


def config_key(params: dict[str, Any]) -> str:
    return orjson.dumps(params, option=orjson.OPT_SORT_KEYS).decode()


@functools.cache
def training_answers(name: str, config_json: str) -> tuple[str, ...]:
    """The stored answers of `TRAINING_SAMPLE` fixed items of the dataset with these parameters (items drawn at
    coordinates no conformance or training row uses: seeds and indices counted down from 2^31)."""
    params = datasets.parse_params(name, orjson.loads(config_json), f"rg/{name} training sample")
    answers = []
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
            answers.append(str(item["answer"]))
    return tuple(answers)


@functools.cache
def balance(name: str, config_json: str) -> AnswerBalance:
    return AnswerBalance.from_sample(training_answers(name, config_json))


def answer_of(identity: dict[str, Any]) -> str:
    """An item's stored answer as the balance compares it (the label of an item of a decision dataset)."""
    return str(identity.get("answer"))
