"""The fast path for pipelines made only of row filters over JSONL input (`bc-filter --min-score 0.9`).

Same checks and errors as `bc_common.readers.read_records(validate=...)` followed by the processor's front
stage, fused into one loop: every line is parsed and validated in full, and a kept line is written as the
bytes it was read as (line endings normalised to "\\n"). The loop itself is `scan.scan`; a large regular file
goes to worker processes (`parallel`).
"""
from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import IO, Any

from bc_common.errors import InputError
from bc_common.jsonl import BATCH_BYTES, open_binary

from . import parallel
from .scan import Counts, Out, Run, WriteFailed, scan
from .seed_rows import SeedRows
from .stages import Stage
from .stats import ProcessStats

_STRUCTURED = (".json", ".json.gz", ".parquet")


def eligible(paths: Iterable[str], stages: list[Stage]) -> bool:
    """True when every stage is a row filter and every input is JSONL (stdin, .jsonl, .jsonl.gz, ...)."""
    return all(kind == "filter" for kind, _, _ in stages) and not any(
        str(p).endswith(_STRUCTURED) for p in paths)


def filter_jsonl(paths: list[str], out: IO[bytes], stats: ProcessStats, stages: list[Stage], *,
                 skip_invalid: bool, validate: Callable[[Any], None] | None, batch: int = BATCH_BYTES,
                 partial: bool = True, jobs: int = 1) -> None:
    """Read `paths` ('-' = stdin), keep the rows every filter accepts, write them to `out`. The seed's
    evaluator rows are converted to trajectories (and written re-serialised). Kept lines go out joined, about
    `batch` bytes a write. `partial=False` decodes every row in full (the reference the partial decoding is tested
    against). With `jobs` > 1, a large regular file is filtered by that many worker processes
    (`bc_filter.parallel`): the same output bytes, counts and errors."""
    run = Run(stages, validate, partial, stats.detailed)
    seed = SeedRows() if validate is not None else None
    counts = Counts(run.labels)
    writer = Out(out, batch)
    split = jobs > 1 and run.splittable and parallel.available()
    try:
        for path in paths or ["-"]:
            source = "<stdin>" if path == "-" else str(path)

            def bad(reason: str, lineno: int, field: str | None, source: str = source) -> None:
                _invalid(reason, source, lineno, field, stats, skip_invalid)

            fh = open_binary(path)
            try:
                first = parallel.filter_file(fh, source, run, jobs, skip_invalid, writer, counts, bad) if split else 1
                scan(run, fh, first, writer, counts, bad, seed, stats)
            except (OSError, EOFError) as exc:  # gzip.BadGzipFile is an OSError; reading only: writes raise WriteFailed
                raise InputError(f"read failed: {exc}", source=source) from None
            finally:
                if fh is not sys.stdin.buffer:
                    fh.close()
        writer.write()
    except WriteFailed as exc:
        raise exc.__cause__ from None  # type: ignore[misc]
    except BaseException:  # a bad line (no --skip-invalid), Ctrl-C: the rows kept before it go out, as from a
        try:  # buffered stream
            writer.write()
        except WriteFailed:
            pass
        raise
    finally:
        stats.rows_in += counts.rows_in
        stats.kept += counts.kept
        stats.rows_out += counts.kept
        for label, count in counts.dropped.items():
            stats.dropped[label] = stats.dropped.get(label, 0) + count


def _invalid(reason: str, source: str, line: int, field: str | None, stats: ProcessStats,
             skip_invalid: bool) -> None:
    error = InputError(reason, source=source, line=line, field=field)
    if not skip_invalid:
        raise error
    stats.add_invalid(str(error))
