"""Parquet that reads back equal to the JSONL it came from.

Parquet unifies struct columns across rows (missing keys become nulls, mixed types fail), so nested
fields — and columns some row lacks, mixes types in, or holds integers beyond int64 in — are stored as JSON
strings; the file's metadata names those columns and `read_parquet` decodes them.
"""
from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import orjson

JSON_COLUMNS_KEY = b"bc.json_columns"


def write_parquet(rows: Iterable[dict[str, Any]], path: str | Path) -> int:
    """Write dict rows; scalar columns stay native, nested ones are JSON text. Published atomically."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from .jsonl import AtomicFile

    rows = list(rows)
    columns: list[str] = []
    for row in rows:
        for key in row:
            if key not in columns:
                columns.append(key)
    json_cols = [c for c in columns
                 if any(c not in r or isinstance(r[c], (dict, list)) or _wide_int(r[c]) for r in rows)
                 or len({type(r.get(c)) for r in rows if r.get(c) is not None}) > 1]
    arrays = {}
    for col in columns:
        values = [r.get(col) for r in rows]
        if col in json_cols:
            values = [None if col not in r else _json(v) for v, r in zip(values, rows, strict=True)]
        arrays[col] = pa.array(values)
    table = pa.table(arrays) if columns else pa.table({})
    meta = dict(table.schema.metadata or {})
    meta[JSON_COLUMNS_KEY] = orjson.dumps(json_cols)
    table = table.replace_schema_metadata(meta)
    with AtomicFile(path) as fh:
        pq.write_table(table, fh)
    return len(rows)


def _wide_int(value: Any) -> bool:
    return type(value) is int and not -(1 << 63) <= value < (1 << 63)


def _json(value: Any) -> str:
    from .jsonl import dumps_wide

    try:
        return orjson.dumps(value).decode()
    except orjson.JSONEncodeError:
        return dumps_wide(value).decode()


def read_parquet(path: str | Path) -> list[dict[str, Any]]:
    """Rows of a parquet file; columns written by `write_parquet` as JSON come back as objects."""
    import pyarrow.parquet as pq

    from .errors import InputError
    from .jsonl import loads

    try:
        table = pq.read_table(path)
    except Exception as exc:
        raise InputError(f"cannot read parquet: {exc}", source=str(path)) from None
    meta = table.schema.metadata or {}
    json_cols = set(orjson.loads(meta[JSON_COLUMNS_KEY])) if JSON_COLUMNS_KEY in meta else set()
    rows = table.to_pylist()
    for row in rows:
        for col in json_cols:
            value = row.get(col)
            if isinstance(value, str):
                row[col] = loads(value)
            elif value is None and col in row:
                del row[col]
    return rows
