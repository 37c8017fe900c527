"""The fast path for pipelines made only of row filters over JSONL input (`bc-filter --min-score 0.9`).

Same checks and errors as `bc_common.readers.read_records(validate=...)` followed by the processor's front
stage, fused into one loop: every line is parsed and validated in full, and a kept line is written as the
bytes it was read as (line endings normalised to "\\n").
"""
from __future__ import annotations

import gzip
import sys
import time
from collections.abc import Callable, Iterable
from typing import IO, Any

import orjson

from bc_common.errors import InputError
from bc_common.jsonl import BATCH_BYTES, BOM, STREAM_DELAY, Record, dumps, open_binary
from bc_common.records import ROLES, STATUSES, check_messages, check_trajectory

from .partial import _DECODE_ERRORS, _DEEP_LINE, _ORJSON_DEPTH, RowView, reads_of
from .seed_rows import SeedRows, is_seed_row
from .stages import ROW_ERRORS, Stage, row_error
from .stats import ProcessStats, score_bin

_STRUCTURED = (".json", ".json.gz", ".parquet")


def eligible(paths: Iterable[str], stages: list[Stage]) -> bool:
    """True when every stage is a row filter and every input is JSONL (stdin, .jsonl, .jsonl.gz, ...)."""
    return all(kind == "filter" for kind, _, _ in stages) and not any(
        str(p).endswith(_STRUCTURED) for p in paths)


def filter_jsonl(paths: list[str], out: IO[bytes], stats: ProcessStats, stages: list[Stage], *,
                 skip_invalid: bool, validate: Callable[[Any], None] | None, batch: int = BATCH_BYTES,
                 partial: bool = True) -> None:
    """Read `paths` ('-' = stdin), keep the rows every filter accepts, write them to `out`. The seed's
    evaluator rows are converted to trajectories (and written re-serialised). Kept lines go out joined, about
    `batch` bytes a write. `partial=False` decodes every row in full (the reference the partial decoding is tested
    against)."""
    keeps = [(keep, label) for _, keep, label in stages]
    dropped = dict.fromkeys([label for _, label in keeps], 0)
    detailed = stats.detailed
    hist_in, sources_in = stats.score_hist_in, stats.data_sources_in
    hist_kept, sources_kept = stats.score_hist_kept, stats.data_sources_kept
    stamps, matches = stats.stamps, stats.matches
    loads, decode_error = orjson.loads, orjson.JSONDecodeError
    quick = validate is check_trajectory
    seed = SeedRows() if validate is not None else None
    # rows are decoded in part when the checks are a trajectory's and every filter names the keys it reads
    reads = reads_of(keep for keep, _ in keeps)
    trajectory_rules = validate is check_trajectory or getattr(validate, "trajectory_rules", False)
    # --stats reads whole rows (code stamps, match seats, scores, sources): decoded whole
    view = RowView.for_reads(reads) if trajectory_rules and partial and not detailed else None
    view_decode, view_row = (view._decode, view._row) if view is not None else (None, None)
    deep = sys.getrecursionlimit() > _ORJSON_DEPTH  # msgspec's depth limit is past orjson's
    lines: list[bytes] = []
    pending = 0  # bytes in lines
    clock = time.monotonic
    last = clock() - STREAM_DELAY  # of the last write: the first kept row, and one kept after a pause, go out at once
    n_in = n_kept = 0
    try:
        for path in paths or ["-"]:
            source = "<stdin>" if path == "-" else str(path)
            fh = open_binary(path)
            try:
                for lineno, line in enumerate(fh, 1):
                    if lineno == 1 and line.startswith(BOM):  # as read_records: a byte order mark is not data
                        line = line[3:]
                    row = None
                    if view_decode is not None:  # RowView.decode inlined: one call fewer a row
                        try:
                            row = view_row(view_decode(line))
                            if deep and len(line) > _DEEP_LINE:
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
                            _invalid(f"invalid JSON: {exc}", source, lineno, None, stats, skip_invalid)
                            continue
                        except InputError as exc:
                            _invalid(exc.reason, source, lineno, exc.field, stats, skip_invalid)
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
                            lines.append(line)
                            pending += len(line)
                            if pending >= batch or clock() - last >= STREAM_DELAY:  # as write_batched
                                _write(out, lines)
                                lines.clear()
                                pending = 0
                                last = clock()
                    except ROW_ERRORS as exc:
                        row_error(Record(row, source, lineno), label, exc, stats, skip_invalid)
            except (OSError, EOFError, gzip.BadGzipFile) as exc:  # reading only: writes raise _WriteFailed
                raise InputError(f"read failed: {exc}", source=source) from None
            finally:
                if fh is not sys.stdin.buffer:
                    fh.close()
        _write(out, lines)
    except _WriteFailed as exc:
        raise exc.__cause__ from None  # type: ignore[misc]
    finally:
        stats.rows_in += n_in
        stats.kept += n_kept
        stats.rows_out += n_kept
        for label, count in dropped.items():
            stats.dropped[label] = stats.dropped.get(label, 0) + count


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


class _WriteFailed(Exception):
    """Carries an OSError from writing past the handler meant for read errors."""


def _write(out: IO[bytes], lines: list[bytes]) -> None:
    try:
        out.write(b"".join(lines))  # one system call even where stdout is unbuffered (PYTHONUNBUFFERED=1)
        out.flush()  # a buffered stdout's reader gets the batch now (a 64 kB batch is one write either way)
    except OSError as exc:
        raise _WriteFailed() from exc


def _invalid(reason: str, source: str, line: int, field: str | None, stats: ProcessStats,
             skip_invalid: bool) -> None:
    error = InputError(reason, source=source, line=line, field=field)
    if not skip_invalid:
        raise error
    stats.add_invalid(str(error))
