"""The processor: runs filters, per-task selectors and transforms, in the order added, over a stream.

    p = Processor()
    p.add_filter(filter_by_score(min_score=0.9))
    p.add_selector(BestPerTask())
    p.add_transformer(to_sft)
    stats = p.process(["traj.jsonl"], "sft.jsonl")

Rows that pass unchanged are written as the bytes they were read as.
"""
from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from bc_common.errors import InputError
from bc_common.jsonl import AtomicFile, Record, read_records
from bc_common.jsonl import dumps as _dumps
from bc_common.records import check_trajectory

from .filters import label_of
from .stats import ProcessStats, score_bin

Row = dict[str, Any]
Stream = Iterator[Record]

_ROW_ERRORS = (KeyError, IndexError, TypeError, ValueError, AttributeError)


class Processor:
    """A pipeline of stages over trajectory rows; the seed's `DataPostProcessor` (same method names)."""

    def __init__(self) -> None:
        self.stages: list[tuple[str, Any, str]] = []  # (kind, stage, label)

    def add_filter(self, fn: Callable[[Row], bool], name: str | None = None) -> Processor:
        """Keep the rows for which `fn(row)` is true (filters combine with AND)."""
        self.stages.append(("filter", fn, name or label_of(fn)))
        return self

    def add_selector(self, selector: Any, name: str | None = None) -> Processor:
        """Add a per-task stage (`BestPerTask`, `TaskOutcome`, `Dedup`, or any object with `select`)."""
        self.stages.append(("select", selector, name or label_of(selector)))
        return self

    def add_transformer(self, fn: Callable[[Row], Row | list[Row] | None], name: str | None = None) -> Processor:
        """Reshape rows: `fn(row)` returns a row, a list of rows (one-to-many) or None (drop)."""
        self.stages.append(("transform", fn, name or label_of(fn)))
        return self

    # -- running ---------------------------------------------------------------------------------

    def run(self, records: Iterable[Record | Row], stats: ProcessStats | None = None, *,
            skip_invalid: bool = False) -> Stream:
        """The output records. A row a stage cannot handle raises InputError naming FILE:LINE, or
        with `skip_invalid` is counted in `stats.invalid` and dropped."""
        stats = stats if stats is not None else ProcessStats()
        observers = []
        for kind, stage, _ in self.stages:
            if kind == "select" and hasattr(stage, "observe"):
                if hasattr(stage, "reset"):
                    stage.reset()
                observers.append(stage.observe)
        stream = self._read(records, stats, observers, skip_invalid)
        tapped = False
        for kind, stage, label in self.stages:
            if kind == "transform" and not tapped:
                stream, tapped = self._kept(stream, stats), True
            if kind == "filter":
                stream = self._filter(stream, stage, label, stats, skip_invalid)
            elif kind == "select":
                stream = self._select(stream, stage, label, stats)
            else:
                stream = self._transform(stream, stage, label, stats, skip_invalid)
        if not tapped:
            stream = self._kept(stream, stats)
        for rec in stream:
            stats.rows_out += 1
            yield rec

    def run_rows(self, rows: Iterable[Row], stats: ProcessStats | None = None) -> Iterator[Row]:
        """Plain dicts in, plain dicts out (no validation)."""
        for rec in self.run(rows, stats):
            yield rec.data

    def process(self, input_path: str | Path | Iterable[str | Path] = "-", output_path: str | Path = "-", *,
                skip_invalid: bool = False, validate: Callable[[Any], None] | None = check_trajectory,
                verbose: bool = False) -> ProcessStats:
        """Read trajectories from files ('-' = stdin), write the output as JSONL ('-' = stdout; a file
        appears whole or not at all), return the statistics."""
        inputs = [input_path] if isinstance(input_path, (str, Path)) else list(input_path)
        stats = ProcessStats()

        def reader() -> Iterator[Record]:
            from bc_common.jsonl import ReadStats

            read = ReadStats()
            try:
                yield from read_records(inputs, skip_invalid=skip_invalid, stats=read, validate=validate)
            finally:
                stats.invalid += read.skipped
                stats.invalid_reasons.extend(read.reasons[: 20 - len(stats.invalid_reasons)])

        out = self.run(reader(), stats, skip_invalid=skip_invalid)
        if str(output_path) == "-":
            write_records(out, sys.stdout.buffer)
            sys.stdout.buffer.flush()
        else:
            with AtomicFile(output_path) as fh:
                write_records(out, fh)
        if verbose:
            print(stats.format(), file=sys.stderr)
        return stats

    # -- stages ----------------------------------------------------------------------------------

    @staticmethod
    def _read(records: Iterable[Record | Row], stats: ProcessStats, observers: list[Callable[[Row], None]],
              skip_invalid: bool) -> Stream:
        hist, sources = stats.score_hist_in, stats.data_sources_in
        for n, rec in enumerate(records, 1):
            if not isinstance(rec, Record):
                rec = Record(rec, "<input>", n)
            row = rec.data
            try:
                for observe in observers:
                    observe(row)
            except _ROW_ERRORS as exc:
                _row_error(rec, "select", exc, stats, skip_invalid)
                continue
            stats.rows_in += 1
            hist[score_bin(row.get("score"))] += 1
            task = row.get("input")
            sources[task.get("data_source") if isinstance(task, dict) else None] += 1
            yield rec

    @staticmethod
    def _kept(stream: Stream, stats: ProcessStats) -> Stream:
        hist, sources = stats.score_hist_kept, stats.data_sources_kept
        for rec in stream:
            row = rec.data
            stats.kept += 1
            hist[score_bin(row.get("score"))] += 1
            task = row.get("input")
            sources[task.get("data_source") if isinstance(task, dict) else None] += 1
            yield rec

    @staticmethod
    def _filter(stream: Stream, keep: Callable[[Row], bool], label: str, stats: ProcessStats,
                skip_invalid: bool) -> Stream:
        stats.dropped.setdefault(label, 0)
        dropped = 0
        try:
            for rec in stream:
                try:
                    ok = keep(rec.data)
                except _ROW_ERRORS as exc:
                    _row_error(rec, label, exc, stats, skip_invalid)
                    continue
                if ok:
                    yield rec
                else:
                    dropped += 1
        finally:
            stats.dropped[label] += dropped

    @staticmethod
    def _select(stream: Stream, selector: Any, label: str, stats: ProcessStats) -> Stream:
        counted = [0]

        def count(items: Stream) -> Stream:
            for rec in items:
                counted[0] += 1
                yield rec

        out = 0
        stats.dropped.setdefault(label, 0)
        for rec in selector.select(count(stream)):
            out += 1
            yield rec
        stats.dropped[label] += counted[0] - out

    @staticmethod
    def _transform(stream: Stream, fn: Callable[[Row], Any], label: str, stats: ProcessStats,
                   skip_invalid: bool) -> Stream:
        counts = stats.transformed.setdefault(label, [0, 0])
        for rec in stream:
            counts[0] += 1
            try:
                result = fn(rec.data)
            except _ROW_ERRORS as exc:
                _row_error(rec, label, exc, stats, skip_invalid)
                continue
            if result is None:
                continue
            for row in result if isinstance(result, list) else (result,):
                counts[1] += 1
                yield Record(row, rec.source, rec.line)


def _row_error(rec: Record, label: str, exc: Exception, stats: ProcessStats, skip_invalid: bool) -> None:
    detail = f"missing field {exc}" if isinstance(exc, KeyError) else f"{type(exc).__name__}: {exc}"
    error = InputError(f"not a usable trajectory for {label}: {detail}", source=rec.source, line=rec.line)
    if not skip_invalid:
        raise error
    stats.add_invalid(str(error))


def write_records(records: Iterable[Record], fh: Any, batch: int = 512) -> int:
    """Write records as JSONL lines; unchanged input lines go out as the bytes read. Returns the count."""
    lines: list[bytes] = []
    n = 0
    for rec in records:
        raw = rec.raw
        if raw is not None:
            lines.append(raw)
            lines.append(b"\n")
        else:
            lines.append(_dumps(rec.data))
        n += 1
        if len(lines) >= batch:
            fh.writelines(lines)
            lines.clear()
    fh.writelines(lines)
    return n


DataPostProcessor = Processor
