"""Records from any input: JSONL (default), .json (an object or an array) and .parquet files, or stdin; errors
name FILE:LINE, `skip_invalid` counts and skips instead.

    for rec in read_records(["tasks.jsonl"], skip_invalid=True, stats=stats):
        rec.data, rec.source, rec.line, rec.raw

The dispatch by suffix lives here, above `jsonl` and `parquet_io`, which both build on `jsonl`.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import orjson

from .errors import InputError
from .jsonl import BOM, ReadStats, Record, display_name, iter_lines, loads, open_binary
from .parquet_io import read_parquet


def read_records(paths: Iterable[str | Path] | None = None, *, skip_invalid: bool = False,
                 stats: ReadStats | None = None, validate: Callable[[Any], None] | None = None,
                 convert: Callable[[Any], Any] | None = None) -> Iterator[Record]:
    """Records from JSONL (default), .json (object or array) and .parquet files; stdin when `paths` is empty.

    `convert(data)` (before `validate`) may return another object for a row (an older format read as ours);
    such a record has no `raw` bytes. A line that is not JSON, or that `convert` or `validate` rejects (raising
    InputError), raises InputError naming FILE:LINE — or, with `skip_invalid`, is counted in `stats` and skipped.
    """
    stats = stats if stats is not None else ReadStats()
    for path in list(paths or []) or ["-"]:
        path = str(path)
        source = display_name(path)
        if path.endswith(".parquet"):
            rows = ((i, None, row) for i, row in enumerate(read_parquet(path), 1))
        elif path.endswith(".json") or path.endswith(".json.gz"):
            rows = ((i, None, row) for i, row in enumerate(_read_json_file(path), 1))
        else:
            rows = ((lineno, line, None) for lineno, line in iter_lines(path))
        for lineno, raw, data in rows:
            try:
                if raw is not None:
                    try:
                        data = loads(raw)
                    except orjson.JSONDecodeError as exc:
                        raise InputError(f"invalid JSON: {exc}", source=source, line=lineno) from None
                if convert is not None or validate is not None:
                    try:
                        if convert is not None:
                            converted = convert(data)
                            if converted is not data:
                                data, raw = converted, None
                        if validate is not None:
                            validate(data)
                    except InputError as exc:
                        raise exc.located(source, lineno) from None
            except InputError as exc:
                if not skip_invalid:
                    raise
                stats.skip(exc)
                continue
            stats.read += 1
            yield Record(data, source, lineno, raw)


def _read_json_file(path: str) -> list[Any]:
    with open_binary(path) as fh:
        try:
            data = loads(fh.read().removeprefix(BOM))
        except orjson.JSONDecodeError as exc:
            raise InputError(f"invalid JSON: {exc}", source=path) from None
    return data if isinstance(data, list) else [data]
