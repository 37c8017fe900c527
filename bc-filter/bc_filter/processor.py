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
from typing import IO, Any

from bc_common.errors import UsageError
from bc_common.jsonl import STREAM_DELAY, AtomicFile, Record, write_batched
from bc_common.jsonl import dumps as _dumps
from bc_common.locks import OutputLock
from bc_common.paths import refuse_collisions, stdin_or
from bc_common.readers import read_records
from bc_common.records import check_trajectory

from . import fast, stages
from .filters import label_of
from .seed_rows import SeedRows, is_seed_row
from .stats import ProcessStats

Row = dict[str, Any]
Stream = Iterator[Record]


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
        self._declare(stats)
        observers = []
        for kind, stage, _ in self.stages:
            if kind == "select" and hasattr(stage, "observe"):
                if hasattr(stage, "reset"):
                    stage.reset()
                observers.append(stage.observe)
        n_leading = 0
        while n_leading < len(self.stages) and self.stages[n_leading][0] == "filter":
            n_leading += 1
        rest = self.stages[n_leading:]
        stream = stages.front(records, stats, observers, self.stages[:n_leading], skip_invalid, last=not rest)
        if not rest:
            return stream
        tapped = False
        for kind, stage, label in rest:
            if kind == "transform" and not tapped:
                stream, tapped = stages.kept(stream, stats), True
            if kind == "filter":
                stream = stages.filter_stage(stream, stage, label, stats, skip_invalid)
            elif kind == "select":
                stream = stages.select_stage(stream, stage, label, stats)
            else:
                stream = stages.transform_stage(stream, stage, label, stats, skip_invalid)
        if not tapped:
            stream = stages.kept(stream, stats)
        return stages.count_out(stream, stats)

    def run_rows(self, rows: Iterable[Row], stats: ProcessStats | None = None) -> Iterator[Row]:
        """Plain dicts in, plain dicts out (no validation)."""
        for rec in self.run(rows, stats):
            yield rec.data

    def process(self, input_path: str | Path | Iterable[str | Path] = "-", output_path: str | Path = "-", *,
                skip_invalid: bool = False, validate: Callable[[Any], None] | None = check_trajectory,
                verbose: bool = False, detailed: bool = True, output_format: str = "jsonl",
                jobs: int | None = None) -> ProcessStats:
        """Read trajectories from files ('-' = stdin; the seed's evaluator rows are converted), write the output
        as JSONL or parquet ('-' = stdout, JSONL only; a file appears whole or not at all), return the
        statistics (`detailed=False`: counts only, faster). `jobs`: worker processes for a large input file when
        every stage is a row filter (None: one per core, at most 8; 1: this process only); the output is the same."""
        inputs = [str(p) for p in ([input_path] if isinstance(input_path, (str, Path)) else input_path)]
        refuse_collisions(reads=[("", path) for path in stdin_or(inputs)], writes=[("-o", output_path)])
        if output_format not in ("jsonl", "parquet"):
            raise ValueError(f"unknown output format {output_format!r}; choose jsonl or parquet")
        if output_format == "parquet" and str(output_path) == "-":
            raise UsageError("parquet output needs -o FILE (not stdout)")
        with OutputLock(output_path, prog="bc-filter"):  # one writer per output
            return self._process(inputs, output_path, skip_invalid=skip_invalid, validate=validate,
                                 verbose=verbose, detailed=detailed, output_format=output_format, jobs=jobs)

    def _process(self, inputs: list[str], output_path: str | Path, *, skip_invalid: bool,
                 validate: Callable[[Any], None] | None, verbose: bool, detailed: bool,
                 output_format: str, jobs: int | None) -> ProcessStats:
        stats = ProcessStats(detailed=detailed)
        self._declare(stats)
        if output_format == "jsonl" and fast.eligible(inputs, self.stages):
            if jobs is None:
                jobs = fast.parallel.default_jobs()
            self._write(output_path, lambda fh: fast.filter_jsonl(
                inputs, fh, stats, self.stages, skip_invalid=skip_invalid, validate=validate, jobs=jobs))
            if verbose:
                print(stats.format(), file=sys.stderr)
            return stats

        def reader() -> Iterator[Record]:
            from bc_common.jsonl import ReadStats

            read = ReadStats()
            seed = SeedRows()
            try:
                yield from read_records(inputs, skip_invalid=skip_invalid, stats=read, validate=validate,
                                        convert=lambda row: seed.convert(row) if is_seed_row(row) else row)
            finally:
                stats.invalid += read.skipped
                stats.invalid_reasons.extend(read.reasons[: 20 - len(stats.invalid_reasons)])

        out = self.run(reader(), stats, skip_invalid=skip_invalid)
        if output_format == "parquet":
            from bc_common.parquet_io import write_parquet

            write_parquet((rec.data for rec in out), output_path)
        else:
            self._write(output_path, lambda fh: write_records(out, fh))
        if verbose:
            print(stats.format(), file=sys.stderr)
        return stats

    def _declare(self, stats: ProcessStats) -> None:
        # list every dropping stage up front, so reports follow the pipeline order
        for kind, _, label in self.stages:
            if kind != "transform":
                stats.dropped.setdefault(label, 0)
            else:
                stats.transformed.setdefault(label, [0, 0])

    @staticmethod
    def _write(output_path: str | Path, write: Callable[[IO[bytes]], object]) -> None:
        if str(output_path) == "-":
            write(sys.stdout.buffer)
            sys.stdout.buffer.flush()
        else:  # a device or pipe (/dev/null, a FIFO) is written into, never renamed over
            with AtomicFile(output_path) as fh:
                write(fh)


def write_records(records: Iterable[Record], fh: Any) -> int:
    """Write records as JSONL lines; unchanged input lines go out as the bytes read. Returns the count."""
    return write_batched(fh, (rec.raw + b"\n" if rec.raw is not None else _dumps(rec.data) for rec in records),
                         max_delay=STREAM_DELAY)  # a slow stream's reader gets rows as they come


DataPostProcessor = Processor
