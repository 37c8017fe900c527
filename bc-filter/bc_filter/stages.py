"""The generators a Processor chains: one per stage kind, each counting what it drops into the stats.

`front` is the hot loop: it reads, counts and applies the leading filters in one generator, so the common
`bc-filter --min-score 0.9` costs one Python frame per row on top of parsing.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from bc_common.errors import InputError
from bc_common.jsonl import Record

from .stats import ProcessStats, score_bin

Row = dict[str, Any]
Stream = Iterator[Record]
Stage = tuple[str, Any, str]  # (kind, filter/selector/transform, label)

ROW_ERRORS = (KeyError, IndexError, TypeError, ValueError, AttributeError)


def row_error(rec: Record, label: str, exc: Exception, stats: ProcessStats, skip_invalid: bool) -> None:
    """Raise InputError at the record's FILE:LINE, or count it as invalid with `skip_invalid`."""
    error = InputError(row_error_reason(label, exc), source=rec.source, line=rec.line)
    if not skip_invalid:
        raise error
    stats.add_invalid(str(error))


def row_error_reason(label: str, exc: Exception) -> str:
    """What `row_error` says of a row the stage `label` could not handle."""
    detail = f"missing field {exc}" if isinstance(exc, KeyError) else f"{type(exc).__name__}: {exc}"
    return f"not a usable trajectory for {label}: {detail}"


def _source(row: Row) -> Any:
    task = row.get("input")
    return task.get("data_source") if type(task) is dict else None


def front(records: Iterable[Record | Row], stats: ProcessStats, observers: list[Callable[[Row], None]],
          filters: list[Stage], skip_invalid: bool, last: bool) -> Stream:
    """Count input rows, feed observers, apply the leading filters (AND). With `last` (no later stage)
    it also counts the rows kept and written."""
    detailed = stats.detailed
    hist_in, sources_in = stats.score_hist_in, stats.data_sources_in
    hist_kept, sources_kept = stats.score_hist_kept, stats.data_sources_kept
    stamps, matches = stats.stamps, stats.matches
    keeps = [(keep, label) for _, keep, label in filters]
    dropped = dict.fromkeys([label for _, label in keeps], 0)
    n_in = n_kept = 0
    try:
        for n, rec in enumerate(records, 1):
            if not isinstance(rec, Record):
                rec = Record(rec, "<input>", n)
            row = rec.data
            label = "select"
            try:
                for observe in observers:
                    observe(row)
                n_in += 1
                if detailed:
                    stamps.add(row)
                    matches.add(row)
                    b = score_bin(row.get("score"))
                    hist_in[b] += 1
                    source = _source(row)
                    sources_in[source] += 1
                for keep, label in keeps:
                    if not keep(row):
                        dropped[label] += 1
                        break
                else:
                    if last:
                        n_kept += 1
                        if detailed:
                            hist_kept[b] += 1
                            sources_kept[source] += 1
                    yield rec
            except ROW_ERRORS as exc:
                row_error(rec, label, exc, stats, skip_invalid)
    finally:
        stats.rows_in += n_in
        for label, count in dropped.items():
            stats.dropped[label] = stats.dropped.get(label, 0) + count
        if last:
            stats.kept += n_kept
            stats.rows_out += n_kept


def kept(stream: Stream, stats: ProcessStats) -> Stream:
    """Count the trajectories that survived filters and selectors (before any transform)."""
    hist, sources = stats.score_hist_kept, stats.data_sources_kept
    for rec in stream:
        row = rec.data
        stats.kept += 1
        if stats.detailed:
            hist[score_bin(row.get("score"))] += 1
            sources[_source(row)] += 1
        yield rec


def count_out(stream: Stream, stats: ProcessStats) -> Stream:
    for rec in stream:
        stats.rows_out += 1
        yield rec


def filter_stage(stream: Stream, keep: Callable[[Row], bool], label: str, stats: ProcessStats,
                 skip_invalid: bool) -> Stream:
    stats.dropped.setdefault(label, 0)
    for rec in stream:
        try:
            ok = keep(rec.data)
        except ROW_ERRORS as exc:
            row_error(rec, label, exc, stats, skip_invalid)
            continue
        if ok:
            yield rec
        else:
            stats.dropped[label] += 1


def select_stage(stream: Stream, selector: Any, label: str, stats: ProcessStats) -> Stream:
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


def transform_stage(stream: Stream, fn: Callable[[Row], Any], label: str, stats: ProcessStats,
                    skip_invalid: bool) -> Stream:
    """Apply a transform; its output rows are new records (written re-serialised, not as input bytes)."""
    counts = stats.transformed.setdefault(label, [0, 0])
    for rec in stream:
        counts[0] += 1
        try:
            result = fn(rec.data)
        except ROW_ERRORS as exc:
            row_error(rec, label, exc, stats, skip_invalid)
            continue
        if result is None:
            continue
        for row in result if isinstance(result, list) else (result,):
            counts[1] += 1
            yield Record(row, rec.source, rec.line)
