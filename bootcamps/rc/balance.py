"""The answer balance of every rc/<task> (bc_common.answer_balance): the answers of a fixed training sample of
the task's items, and the acceptance that flattens them. The `frequent` baseline learns its answer from the same
sample."""
from __future__ import annotations

import functools
from typing import Any

import orjson

from bc_common.answer_balance import AnswerBalance

from . import tasks
from .policy import reference_answer

TRAINING_SAMPLE = 50  # items of the task the balance (and the `frequent` baseline) learn the answers from
TRAINING_SEED = 2**62  # seeds counted up from here: coordinates no row draws in practice (rows draw 63-bit seeds)


def config_key(params: dict[str, Any]) -> str:
    return orjson.dumps(params, option=orjson.OPT_SORT_KEYS).decode()


@functools.cache
def training_answers(name: str, config_json: str, level: int) -> tuple[str, ...]:
    """The reference answers of `TRAINING_SAMPLE` fixed items of the task with these parameters."""
    params = orjson.loads(config_json)
    answers = []
    for j in range(TRAINING_SAMPLE):
        try:
            item = tasks.make_item(name, params, level, TRAINING_SEED + j)
        except Exception:  # noqa: BLE001  (an item reasoning-core cannot make teaches nothing)
            continue
        answers.append(reference_answer(item))
    return tuple(answers)


@functools.cache
def balance(name: str, config_json: str, level: int) -> AnswerBalance:
    return AnswerBalance.from_sample(training_answers(name, config_json, level))


def label(identity: dict[str, Any]) -> str:
    """The label of an item of a decision task: its answer."""
    return reference_answer(identity)

