"""One pass of bc-filter's fast path over lines: the checks, the partial decode, the filters, the kept lines.

    run = Run(stages, validate, partial=True, detailed=False)
    scan(run, lines, 1, Out(out), Counts(run.labels), bad, SeedRows(), stats)

`fast.filter_jsonl` runs it over each input in one process; `parallel` runs it over pieces of a large file in
worker processes (they get the same `Run` by fork).
"""
from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable
from itertools import chain
from typing import IO, Any

import orjson

from bc_common.errors import InputError
from bc_common.jsonl import BATCH_BYTES, BOM, STREAM_DELAY, dumps
from bc_common.records import ROLES, STATUSES, check_messages, check_trajectory

from .partial import _DECODE_ERRORS, _DEEP_LINE, _ORJSON_DEPTH, RowView, reads_of
from .seed_rows import SeedRows, is_seed_row
from .stages import ROW_ERRORS, Stage, row_error_reason
from .stats import ProcessStats, score_bin

__all__ = ["Counts", "Out", "Run", "WriteFailed", "scan"]


class Run:
    """What every line of one run goes through: the checks, the partial decoding, the filters (worker processes of
    a parallel run get the same object, by fork)."""

    def __init__(self, stages: list[Stage], validate: Callable[[Any], None] | None, partial: bool, detailed: bool):
        self.keeps = [(keep, label) for _, keep, label in stages]
        self.labels = [label for _, label in self.keeps]
        self.validate = validate
        self.quick = validate is check_trajectory
        self.detailed = detailed
        # rows are decoded in part when the checks are a trajectory's and every filter names the keys it reads
        reads = reads_of(keep for keep, _ in self.keeps)
        trajectory_rules = validate is check_trajectory or getattr(validate, "trajectory_rules", False)
        # --stats reads whole rows (code stamps, match seats, scores, sources): decoded whole
        self.view = RowView.for_reads(reads) if trajectory_rules and partial and not detailed else None
        self.deep = sys.getrecursionlimit() > _ORJSON_DEPTH  # msgspec's depth limit is past orjson's

    @property
    def splittable(self) -> bool:
        """Whether lines may be filtered apart, in worker processes: no --stats tallies, and every filter keeps no
        state between rows (`stateless`; a split filter remembers the splits it refused)."""
        return not self.detailed and all(getattr(keep, "stateless", False) for keep, _ in self.keeps)


class Counts:
    """Lines read, rows in, rows kept, and drops per filter label, of one stretch of input."""

    __slots__ = ("dropped", "kept", "lines", "rows_in")

    def __init__(self, labels: list[str]):
        self.lines = self.rows_in = self.kept = 0
        self.dropped = dict.fromkeys(labels, 0)

    def add(self, other: Counts) -> None:
        self.lines += other.lines
        self.rows_in += other.rows_in
        self.kept += other.kept
        for label, count in other.dropped.items():
            self.dropped[label] += count


class Out:
    """Kept lines on their way out, joined about `batch` bytes a write; with `delay`, a line kept that long after
    the last write goes out at once (as `write_batched`). `out=None` holds them (a worker's piece)."""

    def __init__(self, out: IO[bytes] | None, batch: int = BATCH_BYTES, delay: float | None = STREAM_DELAY):
        self.out = out
        self.lines: list[bytes] = []
        self.pending = 0  # bytes in lines
        self.batch = batch
        self.delay = delay
        self.last = time.monotonic() - (delay or 0.0)  # of the last write: the first kept row goes out at once

    def write(self, extra: bytes = b"") -> None:
        """Write the held lines (and `extra` after them), flushed: one system call even where stdout is unbuffered
        (PYTHONUNBUFFERED=1), and a buffered stdout's reader gets the batch now."""
        if not self.lines and not extra:
            return
        assert self.out is not None
        try:
            if self.lines:
                self.out.write(b"".join(self.lines))
            if extra:
                self.out.write(extra)
            self.out.flush()
        except OSError as exc:
            raise WriteFailed() from exc
        self.lines.clear()
        self.pending = 0
        self.last = time.monotonic()


def scan(run: Run, lines: Iterable[bytes], first: int, writer: Out, counts: Counts,
         bad: Callable[[str, int, str | None], None], seed: Any, stats: ProcessStats | None) -> None:
    """Put `lines` (numbered from `first`; a byte order mark is dropped from line 1) through `run`: kept lines go to
    `writer`, a line or row that fails to `bad(reason, line number, field)`, which raises or counts it; the tallies
    of --stats go to `stats` (a run that keeps them)."""
    keeps, dropped = run.keeps, counts.dropped
    detailed = run.detailed
    if detailed:
        assert stats is not None
        hist_in, sources_in = stats.score_hist_in, stats.data_sources_in
        hist_kept, sources_kept = stats.score_hist_kept, stats.data_sources_kept
        stamps, matches = stats.stamps, stats.matches
    loads, decode_error = orjson.loads, orjson.JSONDecodeError
    validate, quick = run.validate, run.quick
    deep_line = _DEEP_LINE if run.deep else sys.maxsize  # longer lines may nest past orjson's depth limit
    view_decode, view_row = (run.view._decode, run.view._row) if run.view is not None else (None, None)
    kept, pending, batch, delay, last = writer.lines, writer.pending, writer.batch, writer.delay, writer.last
    clock = time.monotonic
    n_in = n_kept = 0
    lineno = first - 1
    if first == 1:  # as read_records: a byte order mark is not data
        lines = iter(lines)
        for line in lines:
            lines = chain((line[3:] if line.startswith(BOM) else line,), lines)
            break
    try:
        for lineno, line in enumerate(lines, first):
            row = None
            if view_decode is not None:  # RowView.decode inlined: one call fewer a row
                try:
                    row = view_row(view_decode(line))
                    if len(line) > deep_line:
                        row = None  # msgspec may have accepted a depth orjson refuses: the full decode
                    elif not line.isascii():
                        line.decode()  # msgspec skips strings without checking their UTF-8
                except _DECODE_ERRORS:
                    row = None
            in_part = row is not None
            if not in_part:
                try:
                    row, line = _full(line, validate, quick, seed)
                except decode_error as exc:
                    if not line.strip():
                        continue
                    bad(f"invalid JSON: {exc}", lineno, None)
                    continue
                except InputError as exc:
                    bad(exc.reason, lineno, exc.field)
                    continue
            n_in += 1
            label = "input"
            try:
                if detailed:
                    stamps.add(row)
                    matches.add(row)
                    b = score_bin(row.get("score"))
                    hist_in[b] += 1
                    task = row.get("input")
                    data_source = task.get("data_source") if type(task) is dict else None
                    sources_in[data_source] += 1
                try:
                    for keep, label in keeps:
                        if not keep(row):
                            dropped[label] += 1
                            break
                    else:
                        label = ""
                except ROW_ERRORS:
                    if not in_part:
                        raise
                    # the filter wants more than its declared keys (turns without num_turns): ask again
                    # with the whole row, which answers or words the error
                    label = _first_drop(keeps, loads(line))
                    if label:
                        dropped[label] += 1
                if not label:
                    n_kept += 1
                    if detailed:
                        hist_kept[b] += 1
                        sources_kept[data_source] += 1
                    if not line.endswith(b"}\n"):  # the usual ending, else normalise
                        line = line.rstrip(b"\r\n") + b"\n"
                    kept.append(line)
                    pending += len(line)
                    if pending >= batch or (delay is not None and clock() - last >= delay):
                        writer.write()
                        pending, last = 0, writer.last
            except ROW_ERRORS as exc:
                bad(row_error_reason(label, exc), lineno, None)
    finally:
        writer.pending, writer.last = pending, last
        counts.lines += lineno - first + 1
        counts.rows_in += n_in
        counts.kept += n_kept


def _full(line: bytes, validate: Callable[[Any], None] | None, quick: bool,
          seed: SeedRows | None) -> tuple[Any, bytes]:
    """The whole row of `line` after `validate` (and the line to write: a seed row is converted and
    re-serialised). Raises orjson.JSONDecodeError or InputError."""
    row = orjson.loads(line)
    if validate is None:
        return row, line
    # check_trajectory's conditions inline (the usual rows); a row failing them gets the full check, which
    # names the wrong field
    if (quick and type(row) is dict and "id" in row and "task_id" in row
            and type(row.get("input")) is dict and type(row.get("messages")) is list
            and type(row.get("score")) in _NUMBER and row.get("status") in _STATUSES):
        for m in row["messages"]:  # check_messages' conditions inline, the usual shapes
            if not (m.__class__ is dict and m.get("role") in _ROLES
                    and m.get("content").__class__ in _CONTENT
                    and ("tool_calls" not in m or _calls_ok(m["tool_calls"]))):
                check_messages(row["messages"])  # the full check words the error
                break
        return row, line
    if seed is not None and is_seed_row(row):  # the seed's evaluator row: ours now
        row = seed.convert(row)
        line = dumps(row)
    validate(row)  # the full check: raises with the exact field
    return row, line


def _first_drop(keeps: list[tuple[Callable[[Any], bool], str]], row: Any) -> str:
    """The label of the first filter that drops `row`, or "" when all keep it."""
    for keep, label in keeps:
        if not keep(row):
            return label
    return ""


_STATUSES = frozenset(STATUSES)
_NUMBER = (int, float)
_ROLES = ROLES
_CONTENT = frozenset((str, type(None)))  # content parts (lists) take the full check


def _calls_ok(calls: Any) -> bool:
    return calls is None or (calls.__class__ is list and all(
        c.__class__ is dict and c.get("function").__class__ is dict for c in calls))


class WriteFailed(Exception):
    """Carries an OSError from writing past the handler meant for read errors."""


