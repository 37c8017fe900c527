"""One pass over a run's trajectories: compact columns for the statistics and plots, per-task tallies for pass@k,
each row's (task, sample) for paired comparison, and the trajectories the browser embeds.

Memory grows by about 90 bytes per trajectory (numbers in `array`s: the columns, the row's task number and
sample) and about 170 per task (its id, its number, its tallies and a bitmask of the samples seen), plus the
embedded views, whose number is capped: every failure up to `max_failures`, and a seeded sample of `max_passes` of
the rest. Both are bottom-k samples by a seeded hash of the trajectory id, so the choice does not depend on input
order or sharding.
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
        self._hasher = hashlib.blake2b(self.salt, digest_size=8)  # the salt hashed once; each key continues a copy
        self.seen = 0
        self._heap: list[tuple[int, str, int, Any]] = []  # (-hash, key, arrival, item): the root is the largest
        # kept hash; the arrival number breaks ties, so two rows never reach a comparison of their dicts

    def wants(self, key: str) -> int | None:
        """Count `key` as seen; its hash when it belongs in the sample (then call `keep`), else None."""
        self.seen += 1
        if self.cap <= 0:
            return None
        hasher = self._hasher.copy()  # blake2b(salt + key): the same digest as hashing the two joined
        hasher.update(key.encode())
        h = int.from_bytes(hasher.digest(), "little")
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
        self.task_no: dict[str, int] = {}  # task id -> task number (order of first appearance)
        self.task_ids: list[str] = []  # task number -> task id
        # per task number: samples, passed, score sum, group code; the samples 0-63 seen, as bits
        self.task_n, self.task_c, self.task_sum, self.task_group = array("i"), array("i"), array("d"), array("i")
        self.task_seen = array("Q")
        self._seen_high: set[tuple[int, int]] = set()  # (task number, sample) of samples 64 and up
        self.row_task, self.row_sample = array("i"), array("i")  # row number -> task number, sample
        self.row_source = array("i")  # row number -> index in `sources` (to name both files of a repeat)
        self.model_source: tuple[str, str] | None = None  # (model, FILE:LINE) of the run's first row
        self._tool_lists: dict[tuple[int, tuple[str, ...]], int] = {}  # (group code, a row's tool names) -> rows
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
        self.count_facts([(facts_of(row), 0, row)], where)

    def count_facts(self, batch: list[tuple[Facts, int, dict[str, Any] | bytes]], source: str) -> None:
        """Count trajectories, each given as (facts, line number in `source`, row); the row (its dict, or its JSONL
        line) is kept only while the browser's sample wants it, and becomes a view when the page asks for the
        embedded trajectories. Line number 0: `source` names the place whole.

        This loop is bc-report's cost per trajectory, so every column's append is bound once per batch."""
        score, passed_col, status_col, group_col = (self.score.append, self.passed.append, self.status.append,
                                                    self.group.append)
        turns_col, calls_col, errors_col = self.turns.append, self.tool_calls.append, self.tool_errors.append
        prompt_col, completion_col, cost_col = (self.prompt_tokens.append, self.completion_tokens.append,
                                                self.cost.append)
        wall_col, started_col, source_col = self.wall_s.append, self.started.append, self.row_source.append
        latency, latency_group = self.latency.extend, self.latency_group.extend
        groups, task_no, models, tool_lists = self.groups, self.task_no, self.models, self._tool_lists
        task_n, task_c, task_sum, seen = self.task_n, self.task_c, self.task_sum, self.task_seen
        row_task, row_sample = self.row_task.append, self.row_sample.append
        stamps, status_code = self.stamps.seen, STATUS_CODE
        first_model = None if self.model_source is None else self.model_source[0]
        source_index = max(0, len(self.sources) - 1)
        for facts, lineno, row in batch:
            (rid, tid, sample, model, bootcamp, group_name, score_, status, passed, turns, latencies, tool_names,
             tool_errors, prompt_tokens, completion_tokens, cost, wall_s, started, stamp, match) = facts
            if model != first_model:
                self._other_model(model, _where(source, lineno))
                first_model = model
            group = groups.get((bootcamp, group_name))
            if group is None:
                group = groups[(bootcamp, group_name)] = len(groups)
            number = task_no.get(tid)
            if number is None:
                number = self._new_task(tid, group)
            if sample < 64:
                bit = 1 << sample
                if seen[number] & bit:
                    self._repeat(number, sample, _where(source, lineno))
                seen[number] |= bit
            else:
                if (number, sample) in self._seen_high:
                    self._repeat(number, sample, _where(source, lineno))
                self._seen_high.add((number, sample))
            if stamp is not None:
                by_hash = stamps.get(stamp[0])
                if by_hash is None:
                    by_hash = stamps[stamp[0]] = Counter()
                by_hash[stamp[1]] += 1
            if match is not None:
                self.matches.add(match)
            if latencies:
                latency(latencies)
                latency_group([group] * len(latencies))
            if tool_names:
                key = (group, tuple(tool_names))
                tool_lists[key] = tool_lists.get(key, 0) + 1
            for name, etype in tool_errors:
                self.errors_by_tool[(group, name, etype)] += 1
            score(score_)
            passed_col(passed)
            status_col(status_code[status])
            group_col(group)
            turns_col(turns)
            calls_col(len(tool_names))
            errors_col(len(tool_errors))
            prompt_col(prompt_tokens)
            completion_col(completion_tokens)
            cost_col(cost)
            wall_col(wall_s)
            started_col(started)
            source_col(source_index)
            models[model] += 1
            row_task(number)
            row_sample(sample)
            task_n[number] += 1
            task_c[number] += passed
            task_sum[number] += score_
            pool = self.passes if passed else self.failures
            h = pool.wants(rid)
            if h is not None:  # the view is made later, for the rows still in the sample at the end
                pool.keep(h, rid, _Kept(facts, _where(source, lineno), row))

    @property
    def calls_by_tool(self) -> Counter[tuple[int, str]]:
        """Tool calls by (group code, tool name)."""
        calls: Counter[tuple[int, str]] = Counter()
        for (group, names), rows in self._tool_lists.items():
            for name in names:
                calls[(group, name)] += rows
        return calls

    # A run's rows come from one model and never repeat a (task, sample): others are overlapping shards, a file
    # given twice, or two runs that belong side by side. Both errors name the two places and `--compare`.
    def _other_model(self, model: str, where: str) -> None:
        """The first row names the run's model; a row of another model is refused."""
        if self.model_source is None:
            self.model_source = (model, where)
            return
        first_model, first_where = self.model_source
        raise InputError(f"model {model!r} here, but {first_where} is from model {first_model!r}: the files "
                         "of one run hold one model; to set runs side by side give the other one with "
                         "--compare FILE", source=where or None)

    def _new_task(self, task_id: str, group: int) -> int:
        """Number a task on its first row (its group is that row's)."""
        number = self.task_no[task_id] = len(self.task_ids)
        self.task_ids.append(task_id)
        for column in (self.task_n, self.task_c, self.task_seen):
            column.append(0)
        self.task_sum.append(0.0)
        self.task_group.append(group)
        return number

    def _repeat(self, number: int, sample: int, where: str) -> None:
        task_id = self.task_ids[number]
        first = "an earlier row"
        if self.sources:
            row = next(i for i, (t, s) in enumerate(zip(self.row_task, self.row_sample, strict=True))
                       if t == number and s == sample)  # the error path: a scan is fine
            first = self.sources[self.row_source[row]]
        same = " (the same file)" if self.sources and first == self.sources[-1] else ""
        raise InputError(f"task {task_id!r} sample {sample} is already in {first}{same}: the files of one run "
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
        batch: list[tuple[Facts, int, bytes]] = []  # decoded lines, counted together; before a line that needs the
        # full decode the batch is counted first, so rows keep their order and errors their place
        collecting = gc.isenabled()
        gc.disable()  # the loop makes no reference cycles: the collector's passes over the tallies are waste
        try:
            for lineno, line in enumerate(fh, 1):
                if lineno == 1 and line.startswith(BOM):  # as iter_lines: a byte order mark is not data
                    line = line[3:]
                facts = decode_line(line)  # JSON allows the line's ending (whitespace) after the value
                if facts is not None:
                    batch.append((facts, lineno, line))
                    if len(batch) < _BATCH:
                        continue
                    self.count_facts(batch, source)
                    stats.read += len(batch)
                    batch.clear()
                    continue
                if batch:
                    self.count_facts(batch, source)
                    stats.read += len(batch)
                    batch.clear()
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
            if batch:
                self.count_facts(batch, source)
                stats.read += len(batch)
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


_BATCH = 256  # lines decoded before they are counted (their bytes are held until then)


def _where(source: str, lineno: int) -> str:
    return f"{source}:{lineno}" if lineno else source


class _Kept(NamedTuple):
    """A trajectory in the browser's sample, until the page asks for its view."""

    facts: Facts
    where: str
    row: dict[str, Any] | bytes  # the decoded row, or its JSONL line (decoded again for the view)
