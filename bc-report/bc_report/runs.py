"""One pass over a run's trajectories: compact columns for the statistics and plots, per-task tallies for pass@k,
the (task, sample) index for paired comparison, and the trajectories the browser embeds.

Memory grows by a few dozen bytes per trajectory (numbers in `array`s) plus the embedded views, whose number is
capped: every failure up to `max_failures`, and a seeded sample of `max_passes` of the rest. Both are bottom-k
samples by a seeded hash of the trajectory id, so the choice does not depend on input order or sharding.
"""
from __future__ import annotations

import hashlib
import heapq
import math
from array import array
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bc_common.errors import InputError
from bc_common.jsonl import ReadStats
from bc_common.ratings import MatchTally
from bc_common.readers import read_records
from bc_common.records import STATUSES
from bc_common.stamps import StampMix

from .rows import check_report_row
from .view import Images, trajectory_view

STATUS_CODE = {s: i for i, s in enumerate(STATUSES)}


@dataclass
class RunSpec:
    """A run to report on: its label and the JSONL files (shards) that hold it."""

    label: str
    paths: list[str]


class Sample:
    """The `cap` items with the smallest seeded hash of their key (deterministic, order-independent)."""

    def __init__(self, cap: int, seed: int):
        self.cap, self.salt = cap, f"{seed}\x1f".encode()
        self.seen = 0
        self._heap: list[tuple[int, str, int, Any]] = []  # (-hash, key, arrival, item): the root is the largest
        # kept hash; the arrival number breaks ties, so two rows never reach a comparison of their dicts

    def wants(self, key: str) -> int | None:
        """Count `key` as seen; its hash when it belongs in the sample (then call `keep`), else None."""
        self.seen += 1
        if self.cap <= 0:
            return None
        h = int.from_bytes(hashlib.blake2b(self.salt + key.encode(), digest_size=8).digest(), "little")
        if len(self._heap) < self.cap or -h > self._heap[0][0]:
            return h
        return None

    def keep(self, h: int, key: str, item: Any) -> None:
        entry = (-h, key, self.seen, item)
        if len(self._heap) < self.cap:
            heapq.heappush(self._heap, entry)
        else:
            heapq.heapreplace(self._heap, entry)

    def items(self) -> list[Any]:
        return [e[3] for e in sorted(self._heap, key=lambda e: (-e[0], e[1], e[2]))]


def _d(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _num(value: Any, default: float = 0.0) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return default
    return float(value)


def _sample(row: dict[str, Any]) -> int:
    sample = row.get("sample")
    return sample if isinstance(sample, int) and not isinstance(sample, bool) else 0


def _epoch(text: Any) -> float:
    try:
        return datetime.fromisoformat(text).timestamp() if isinstance(text, str) else math.nan
    except ValueError:
        return math.nan


@dataclass
class Run:
    """Accumulates one run; `add` takes a validated trajectory row."""

    label: str
    max_failures: int = 500
    max_passes: int = 100
    seed: int = 0
    extractor: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    images: Images = field(default_factory=Images)

    def __post_init__(self) -> None:
        self.groups: dict[tuple[str, str], int] = {}  # (bootcamp, group) -> code
        self.score, self.passed, self.status = array("d"), array("b"), array("b")
        self.group, self.turns, self.tool_calls, self.tool_errors = array("i"), array("i"), array("i"), array("i")
        self.prompt_tokens, self.completion_tokens = array("q"), array("q")
        self.cost = array("d")  # USD per row; nan where the row carries no cost (no price was known)
        self.wall_s, self.started = array("d"), array("d")
        self.latency, self.latency_group = array("d"), array("i")  # one entry per successful model call
        self.tasks: dict[str, list] = {}  # task id -> [samples, passed, score sum, group code]
        self.pairs: dict[tuple[str, int], int] = {}  # (task id, sample) -> row number
        self.row_source = array("i")  # row number -> index in `sources` (to name both files of a repeat)
        self.model_source: tuple[str, str] | None = None  # (model, FILE:LINE) of the run's first row
        self.calls_by_tool: Counter[tuple[int, str]] = Counter()
        self.errors_by_tool: Counter[tuple[int, str, str]] = Counter()
        self.models: Counter[str] = Counter()
        self.failures = Sample(self.max_failures, self.seed)
        self.passes = Sample(self.max_passes, self.seed)
        self.read = ReadStats()
        self.sources: list[str] = []
        self.stamps = StampMix()  # code versions per bootcamp: a run that mixes them is flagged
        self.matches = MatchTally()  # rows of matches (bc-eval --opponent-model): the ratings' input

    @property
    def count(self) -> int:
        return len(self.score)

    def group_names(self) -> list[tuple[str, str]]:
        """(bootcamp, group) of each group code."""
        return list(self.groups)

    def add(self, row: dict[str, Any], where: str = "") -> None:
        self._check_one_run(row, where)
        self.stamps.add(row)
        self.matches.add(row)
        task = _d(row["input"])
        extra = _d(task.get("extra_info"))
        source = str(task.get("data_source", "?"))
        bootcamp = str(extra.get("bootcamp") or source.removeprefix("bootcamp/"))
        key = (bootcamp, str(extra.get("generator_name") or "default"))
        group = self.groups.setdefault(key, len(self.groups))
        score = _num(row["score"])
        status = row["status"]
        passed = row["success"] if isinstance(row.get("success"), bool) else (status == "completed" and score >= 1.0)
        calls = errors = 0
        error_types: list[str] = []
        for turn in row.get("turns") or ():
            if not isinstance(turn, dict):
                continue
            kind = turn.get("type")
            if kind == "model":
                if turn.get("error") is None:
                    self.latency.append(_num(turn.get("latency_s")))
                    self.latency_group.append(group)
            elif kind == "tool":
                calls += 1
                name = str(turn.get("name", "?"))
                self.calls_by_tool[(group, name)] += 1
                if turn.get("error") is not None:
                    errors += 1
                    etype = str(_d(turn["error"]).get("type") or "error")
                    self.errors_by_tool[(group, name, etype)] += 1
                    error_types.append(etype)
        usage, timing = _d(row.get("usage")), _d(row.get("timing"))
        assistant = _d(row.get("num_turns")).get("assistant")
        if not isinstance(assistant, int):
            assistant = sum(1 for m in row["messages"] if isinstance(m, dict) and m.get("role") == "assistant")
        index = len(self.score)
        self.score.append(score)
        self.passed.append(passed)
        self.status.append(STATUS_CODE[status])
        self.group.append(group)
        self.turns.append(assistant)
        self.tool_calls.append(calls)
        self.tool_errors.append(errors)
        self.prompt_tokens.append(int(_num(usage.get("prompt_tokens"))))
        self.completion_tokens.append(int(_num(usage.get("completion_tokens"))))
        self.cost.append(_num(_d(row.get("cost")).get("usd"), math.nan))
        self.wall_s.append(_num(timing.get("wall_s"), math.nan))
        self.started.append(_epoch(timing.get("started_at")))
        self.models[row["model"] if isinstance(row.get("model"), str) else "?"] += 1
        tid = str(row["task_id"])
        tally = self.tasks.get(tid)
        if tally is None:
            tally = self.tasks[tid] = [0, 0, 0.0, group]
        tally[0] += 1
        tally[1] += passed
        tally[2] += score
        sample = _sample(row)
        self.pairs[(tid, sample)] = index
        self.row_source.append(max(0, len(self.sources) - 1))
        pool = self.passes if passed else self.failures
        rid = str(row["id"])
        h = pool.wants(rid)
        if h is not None:
            facts = {"run": self.label, "bootcamp": bootcamp, "group": key[1], "status": status, "score": score,
                     "passed": bool(passed), "task_id": tid, "sample": sample, "turns": assistant,
                     "tool_calls": calls, "tool_errors": sorted(set(error_types)), "where": where}
            extracted = self.extractor(row) if self.extractor else {"value": None, "note": ""}
            pool.keep(h, rid, trajectory_view(row, facts, self.images, extracted))

    def _check_one_run(self, row: dict[str, Any], where: str) -> None:
        """Refuse rows that cannot belong to one run: a (task, sample) seen before (overlapping shards, a file
        given twice) or another model than the run's first row. Both name the two places and `--compare`."""
        model = row["model"] if isinstance(row.get("model"), str) else "?"
        if self.model_source is None:
            self.model_source = (model, where)
        elif model != self.model_source[0]:
            first_model, first_where = self.model_source
            raise InputError(f"model {model!r} here, but {first_where} is from model {first_model!r}: the files "
                             "of one run hold one model; to set runs side by side give the other one with "
                             "--compare FILE", source=where or None)
        key = (str(row["task_id"]), _sample(row))
        if key in self.pairs:
            first = self.sources[self.row_source[self.pairs[key]]] if self.sources else "an earlier row"
            same = " (the same file)" if self.sources and first == self.sources[-1] else ""
            raise InputError(f"task {key[0]!r} sample {key[1]} is already in {first}{same}: the files of one run "
                             "are shards that never repeat a (task, sample); to set two runs side by side give "
                             "the other one with --compare FILE", source=where or None)

    def read_files(self, paths: Iterable[str], *, skip_invalid: bool = False) -> None:
        """Stream every trajectory of `paths` ('-' is stdin) into this run; bad rows raise InputError naming
        FILE:LINE, or are counted and skipped with `skip_invalid`. Shards that overlap or mix models are an
        InputError naming both files whatever `skip_invalid` says (they are two runs, not bad rows)."""
        for path in paths:
            if str(path) in self.sources:
                raise InputError(f"{path} is given twice as a shard of one run; to compare two runs give the other "
                                 "one with --compare FILE", source=str(path))
            self.sources.append(str(path))
            for rec in read_records([path], skip_invalid=skip_invalid, stats=self.read, validate=check_report_row):
                self.add(rec.data, f"{rec.source}:{rec.line}")

    def embedded(self) -> list[dict[str, Any]]:
        """The browser's trajectories: the kept failures, then the kept sample of passes."""
        return self.failures.items() + self.passes.items()
