"""The answer balance of every rc/<task> (bc_common.answer_balance): the answers of a fixed training sample of
the task's items, and the acceptance that flattens them. The `frequent` baseline learns its answer from the same
sample.

A sample costs 50 reasoning-core items (seconds to a minute), and every process that makes rows of a task needs
it (each `bc-gen -j` worker, each test worker): it is kept on disk under `$BC_CACHE_DIR/rc-training`
(default `~/.cache/bootcamp-harness`), keyed by the task, its knobs, the level, the sample's size and seeds, and
the stamp of rc's code (a hash of bootcamps/rc/ and reasoning-core's version). The file holds its key and is
read only when the key matches; it is written to a temporary file and renamed, so concurrent writers are safe.
A cache that cannot be read or written is skipped: the sample is drawn as without it, the same answers.
"""
from __future__ import annotations

import functools
import hashlib
import os
import tempfile
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import orjson

from bc_common.answer_balance import AnswerBalance
from bc_common.stamps import code_stamp

from . import tasks
from .policy import reference_answer

TRAINING_SAMPLE = 50  # items of the task the balance (and the `frequent` baseline) learn the answers from
TRAINING_SEED = 2**62  # seeds counted up from here: coordinates no row draws in practice (rows draw 63-bit seeds)


def config_key(params: dict[str, Any]) -> str:
    return orjson.dumps(params, option=orjson.OPT_SORT_KEYS).decode()


def cache_dir() -> Path:
    """Where training samples are kept: `$BC_CACHE_DIR/rc-training` (default `~/.cache/bootcamp-harness`)."""
    root = os.environ.get("BC_CACHE_DIR") or Path.home() / ".cache" / "bootcamp-harness"
    return Path(root) / "rc-training"


def _cache_key(name: str, config_json: str, level: int) -> dict[str, Any]:
    return {"task": name, "config": config_json, "level": level, "sample": TRAINING_SAMPLE, "seed": TRAINING_SEED,
            "stamp": code_stamp(__name__)}


def _cache_file(key: dict[str, Any]) -> Path:
    digest = hashlib.blake2b(orjson.dumps(key, option=orjson.OPT_SORT_KEYS), digest_size=16).hexdigest()
    readable = "".join(c if c.isalnum() or c in "_-" else "_" for c in key["task"])[:64]
    return cache_dir() / f"{readable}-{digest}.json"


def _read_cached(key: dict[str, Any]) -> tuple[str, ...] | None:
    try:
        stored = orjson.loads(_cache_file(key).read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return None
    answers = stored.get("answers") if isinstance(stored, dict) and stored.get("key") == key else None
    if not isinstance(answers, list) or not all(isinstance(a, str) for a in answers):
        return None
    return tuple(answers)


def _write_cached(key: dict[str, Any], answers: tuple[str, ...]) -> None:
    path = _cache_file(key)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(orjson.dumps({"key": key, "answers": list(answers)}))
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        pass  # a read-only or full disk: the next process draws the sample again


@functools.cache
def training_answers(name: str, config_json: str, level: int) -> tuple[str, ...]:
    """The reference answers of `TRAINING_SAMPLE` fixed items of the task with these parameters (drawn once, then
    read from the disk cache)."""
    key = _cache_key(name, config_json, level)
    answers = _read_cached(key)
    if answers is None:
        answers, settled = _draw(name, config_json, level)
        if settled:
            _write_cached(key, answers)
    return answers


def draw_training_answers(name: str, config_json: str, level: int) -> tuple[str, ...]:
    """The training sample's answers, drawn from reasoning-core (no cache)."""
    return _draw(name, config_json, level)[0]


def _draw(name: str, config_json: str, level: int) -> tuple[tuple[str, ...], bool]:
    """(the answers, whether they are settled): items reasoning-core cannot make are skipped, the same in every
    run; a failure of this machine (the helper process, the OS) is not, and such a sample is not kept on disk."""
    params = orjson.loads(config_json)
    answers, settled = [], True
    for j in range(TRAINING_SAMPLE):
        try:
            item = tasks.make_item(name, params, level, TRAINING_SEED + j)
        except (OSError, MemoryError, BrokenProcessPool):
            settled = False
            continue
        except Exception:  # noqa: BLE001  (an item reasoning-core cannot make teaches nothing)
            continue
        answers.append(reference_answer(item))
    return tuple(answers), settled and bool(answers)


@functools.cache
def balance(name: str, config_json: str, level: int) -> AnswerBalance:
    return AnswerBalance.from_sample(training_answers(name, config_json, level))


def label(identity: dict[str, Any]) -> str:
    """The label of an item of a decision task: its answer."""
    return reference_answer(identity)

