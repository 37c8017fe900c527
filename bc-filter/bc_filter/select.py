"""Per-task selection: stages that need a table keyed by task (or by content) instead of one row at a time.

A selector turns a stream of records (`bc_common.jsonl.Record`, the row in `.data`) into another:

    BestPerTask().select(records)   # the highest-scoring sample of each task, at the end of the input
    TaskOutcome("fail")             # every sample of the tasks where no sample passed
    Dedup()                         # the first of identical conversations on the same task

`TaskOutcome` also `observe`s every input row before any filter runs, so a task's outcome is judged
on all its samples, not only on those that survived earlier filters.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

import orjson

from bc_common.jsonl import Record

from .filters import is_success

Row = dict[str, Any]

__all__ = ["BestPerTask", "Dedup", "TaskOutcome", "conversation_key", "rank_key"]


def rank_key(row: Row) -> tuple[Any, ...]:
    """Sort key of samples of one task, best first: higher score, success, fewer messages, lower
    sample index, smaller id. Total, so the choice does not depend on the input order."""
    sample = row.get("sample")
    return (-row["score"], not is_success(row), len(row["messages"]),
            sample if isinstance(sample, int) else 0, str(row.get("id")))


class BestPerTask:
    """Keep the best sample of each task (see `rank_key`), in order of each task's first appearance.

    Memory: one record per task.
    """

    label = "best-per-task"

    def __init__(self, key: Callable[[Row], Any] = rank_key):
        self.key = key

    def select(self, records: Iterable[Record]) -> Iterator[Record]:
        best: dict[str, tuple[Any, Record]] = {}
        for rec in records:
            task = rec.data["task_id"]
            rank = self.key(rec.data)
            held = best.get(task)
            if held is None or rank < held[0]:
                best[task] = (rank, rec)  # dicts keep first-insertion order, not update order
        for _, rec in best.values():
            yield rec


class TaskOutcome:
    """Keep the samples of tasks where all samples passed (`"pass"`) or none did (`"fail"`).

    `passed` decides one sample (default: `is_success`). Memory: the rows that reach this stage.
    """

    def __init__(self, want: str, passed: Callable[[Row], bool] = is_success):
        if want not in ("pass", "fail"):
            raise ValueError("want must be 'pass' or 'fail'")
        self.want = want
        self.passed = passed
        self.label = f"{want}-only-tasks"
        self._seen: dict[str, list[int]] = {}  # task -> [passed, total]

    def reset(self) -> None:
        """Forget the outcomes counted so far (a processor calls this at the start of each run)."""
        self._seen = {}

    def observe(self, row: Row) -> None:
        """Count one input sample toward its task's outcome (called on every valid input row)."""
        counts = self._seen.setdefault(row["task_id"], [0, 0])
        counts[0] += bool(self.passed(row))
        counts[1] += 1

    def _keep(self, task: str) -> bool:
        passed, total = self._seen.get(task, (0, 0))
        return passed == total if self.want == "pass" else passed == 0

    def select(self, records: Iterable[Record]) -> Iterator[Record]:
        held = list(records)
        if not self._seen:  # used without observe(): judge on the rows that reached us
            for rec in held:
                self.observe(rec.data)
        for rec in held:
            if self._keep(rec.data["task_id"]):
                yield rec


def conversation_key(row: Row) -> bytes:
    """Digest of (task_id, messages): two rows with the same key are the same conversation on the same task."""
    from hashlib import blake2b  # here (--dedup only): OpenSSL's ~4 ms of bc-filter's start otherwise

    blob = orjson.dumps([row.get("task_id"), row.get("messages")], option=orjson.OPT_SORT_KEYS)
    return blake2b(blob, digest_size=16).digest()


class Dedup:
    """Drop rows whose key was seen before (default `conversation_key`). Memory: one digest per kept row."""

    def __init__(self, key: Callable[[Row], Any] = conversation_key, label: str = "dedup"):
        self.key = key
        self.label = label

    def select(self, records: Iterable[Record]) -> Iterator[Record]:
        seen: set[Any] = set()
        for rec in records:
            key = self.key(rec.data)
            if key not in seen:
                seen.add(key)
                yield rec
