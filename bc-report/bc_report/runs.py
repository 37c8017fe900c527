"""One pass over a run's trajectories: compact columns for the statistics and plots, per-task tallies for pass@k,
the (task, sample) index for paired comparison, and the trajectories the browser embeds.

Memory grows by a few dozen bytes per trajectory (numbers in `array`s) plus the embedded views, whose number is
capped: every failure up to `max_failures`, and a seeded sample of `max_passes` of the rest. Both are bottom-k
samples by a seeded hash of the trajectory id, so the choice does not depend on input order or sharding.
"""
from __future__ import annotations

import gc
import gzip
import hashlib
import heapq
import sys
from array import array
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import orjson

from bc_common.errors import InputError
from bc_common.jsonl import BOM, ReadStats, display_name, loads, open_binary
from bc_common.ratings import MatchTally
from bc_common.readers import read_records
from bc_common.records import STATUSES
from bc_common.stamps import StampMix

from .facts import Facts, decode_line, facts_of
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
        self._calls: dict[int, Counter[str]] = {}  # group code -> tool calls by tool name
        self.errors_by_tool: Counter[tuple[int, str, str]] = Counter()
        self.models: Counter[str] = Counter()
        self.failures = Sample(self.max_failures, self.seed)
        self.passes = Sample(self.max_passes, self.seed)
        self.read = ReadStats()
        self.sources: list[str] = []
        self.stamps = StampMix()  # code versions per bootcamp: a run that mixes them is flagged
        self.matches = MatchTally()  # rows of matches (bc-eval --opponent-model): the ratings' input
        self._views: list[dict[str, Any]] | None = None  # the embedded trajectories, once made

    @property
    def count(self) -> int:
        return len(self.score)

    def group_names(self) -> list[tuple[str, str]]:
        """(bootcamp, group) of each group code."""
        return list(self.groups)

    def add(self, row: dict[str, Any], where: str = "") -> None:
        """Count a row that passed check_report_row."""
        self.count_facts(facts_of(row), where, row)

    def count_facts(self, facts: Facts, where: str, row: dict[str, Any] | bytes) -> None:
        """Count one trajectory; `row` (its dict, or its JSONL line) is kept only while the browser's sample wants
        it, and becomes a view when the page asks for the embedded trajectories."""
        self._check_one_run(facts, where)
        (rid, tid, sample, model, bootcamp, group_name, score, status, passed, turns, latencies, tool_names,
         tool_errors, prompt_tokens, completion_tokens, cost, wall_s, started, stamp, match) = facts
        if stamp is not None:
            self.stamps.count(*stamp)
        if match is not None:
            self.matches.add(match)
        key = (bootcamp, group_name)
        group = self.groups.get(key)
        if group is None:
            group = self.groups[key] = len(self.groups)
            self._calls[group] = Counter()
        if latencies:
            self.latency.extend(latencies)
            self.latency_group.extend([group] * len(latencies))
        if tool_names:
            self._calls[group].update(tool_names)
        for name, etype in tool_errors:
            self.errors_by_tool[(group, name, etype)] += 1
        index = len(self.score)
        self.score.append(score)
        self.passed.append(passed)
        self.status.append(STATUS_CODE[status])
        self.group.append(group)
        self.turns.append(turns)
        self.tool_calls.append(len(tool_names))
        self.tool_errors.append(len(tool_errors))
        self.prompt_tokens.append(prompt_tokens)
        self.completion_tokens.append(completion_tokens)
        self.cost.append(cost)
        self.wall_s.append(wall_s)
        self.started.append(started)
        self.models[model] += 1
        tally = self.tasks.get(tid)
        if tally is None:
            tally = self.tasks[tid] = [0, 0, 0.0, group]
        tally[0] += 1
        tally[1] += passed
        tally[2] += score
        self.pairs[(tid, sample)] = index
        self.row_source.append(max(0, len(self.sources) - 1))
        pool = self.passes if passed else self.failures
        h = pool.wants(rid)
        if h is not None:  # the view is made later, for the rows still in the sample at the end
            pool.keep(h, rid, _Kept(facts, where, row))

    @property
    def calls_by_tool(self) -> Counter[tuple[int, str]]:
        """Tool calls by (group code, tool name)."""
        return Counter({(group, name): n for group, calls in self._calls.items() for name, n in calls.items()})

    def _check_one_run(self, facts: Facts, where: str) -> None:
        """Refuse rows that cannot belong to one run: a (task, sample) seen before (overlapping shards, a file
        given twice) or another model than the run's first row. Both name the two places and `--compare`."""
        model = facts.model
        if self.model_source is None:
            self.model_source = (model, where)
        elif model != self.model_source[0]:
            first_model, first_where = self.model_source
            raise InputError(f"model {model!r} here, but {first_where} is from model {first_model!r}: the files "
                             "of one run hold one model; to set runs side by side give the other one with "
                             "--compare FILE", source=where or None)
        key = (facts.task_id, facts.sample)
        if key in self.pairs:
            first = self.sources[self.row_source[self.pairs[key]]] if self.sources else "an earlier row"
            same = " (the same file)" if self.sources and first == self.sources[-1] else ""
            raise InputError(f"task {key[0]!r} sample {key[1]} is already in {first}{same}: the files of one run "
                             "are shards that never repeat a (task, sample); to set two runs side by side give "
                             "the other one with --compare FILE", source=where or None)

    def read_files(self, paths: Iterable[str], *, skip_invalid: bool = False, partial: bool = True) -> None:
        """Stream every trajectory of `paths` ('-' is stdin) into this run; bad rows raise InputError naming
        FILE:LINE, or are counted and skipped with `skip_invalid`. Shards that overlap or mix models are an
        InputError naming both files whatever `skip_invalid` says (they are two runs, not bad rows).
        `partial=False` decodes every JSONL row in full (the reference the partial decoding is tested against)."""
        for path in paths:
            if str(path) in self.sources:
                raise InputError(f"{path} is given twice as a shard of one run; to compare two runs give the other "
                                 "one with --compare FILE", source=str(path))
            self.sources.append(str(path))
            if partial and not str(path).endswith(_STRUCTURED):
                self._read_jsonl(str(path), skip_invalid)
                continue
            for rec in read_records([path], skip_invalid=skip_invalid, stats=self.read, validate=check_report_row):
                self.add(rec.data, f"{rec.source}:{rec.line}")

    def _read_jsonl(self, path: str, skip_invalid: bool) -> None:
        """read_records' loop over one JSONL input (the same lines, checks and errors), counting each line from
        its partial decode (`decode_line`) and decoding in full only the lines that one cannot vouch for."""
        source = display_name(path)
        stats = self.read
        fh = open_binary(path)
        collecting = gc.isenabled()
        gc.disable()  # the loop makes no reference cycles: the collector's passes over the tallies are waste
        try:
            for lineno, line in enumerate(fh, 1):
                if lineno == 1 and line.startswith(BOM):  # as iter_lines: a byte order mark is not data
                    line = line[3:]
                facts = decode_line(line)  # JSON allows the line's ending (whitespace) after the value
                if facts is None:
                    line = line.rstrip(b"\r\n")
                    if not line.strip():
                        continue
                    try:
                        row = self._full(line, source, lineno)
                    except InputError as exc:
                        if not skip_invalid:
                            raise
                        stats.skip(exc)
                        continue
                    stats.read += 1
                    self.add(row, f"{source}:{lineno}")
                else:
                    stats.read += 1
                    self.count_facts(facts, f"{source}:{lineno}", line)
        except (OSError, EOFError, gzip.BadGzipFile) as exc:
            raise InputError(f"read failed: {exc}", source=source) from None
        finally:
            if collecting:
                gc.enable()
            if fh is not sys.stdin.buffer:
                fh.close()

    @staticmethod
    def _full(line: bytes, source: str, lineno: int) -> dict[str, Any]:
        """The whole row of a line, checked as read_records(validate=check_report_row) checks it."""
        try:
            row = loads(line)
        except orjson.JSONDecodeError as exc:
            raise InputError(f"invalid JSON: {exc}", source=source, line=lineno) from None
        try:
            check_report_row(row)
        except InputError as exc:
            raise exc.located(source, lineno) from None
        return row

    def embedded(self) -> list[dict[str, Any]]:
        """The browser's trajectories: the kept failures, then the kept sample of passes (made once)."""
        if self._views is None:
            self._views = [self._view(kept) for kept in self.failures.items() + self.passes.items()]
        return self._views

    def _view(self, kept: _Kept) -> dict[str, Any]:
        f = kept.facts
        row = loads(kept.row) if isinstance(kept.row, bytes) else kept.row
        facts = {"run": self.label, "bootcamp": f.bootcamp, "group": f.group, "status": f.status, "score": f.score,
                 "passed": bool(f.passed), "task_id": f.task_id, "sample": f.sample, "turns": f.assistant_turns,
                 "tool_calls": len(f.tool_names), "tool_errors": sorted({etype for _, etype in f.tool_errors}),
                 "where": kept.where}
        extracted = self.extractor(row) if self.extractor else {"value": None, "note": ""}
        return trajectory_view(row, facts, self.images, extracted)


_STRUCTURED = (".json", ".json.gz", ".parquet")  # read_records reads these whole-row


class _Kept(NamedTuple):
    """A trajectory in the browser's sample, until the page asks for its view."""

    facts: Facts
    where: str
    row: dict[str, Any] | bytes  # the decoded row, or its JSONL line (decoded again for the view)
