"""Parquet that reads back equal to the JSONL it came from.

Task rows are written as verl reads them (`bc_common.verl_rows`: native struct and list columns, loadable by
verl's RLHFDataset as is). Other rows (trajectories): parquet unifies struct columns across rows (missing keys
become nulls, mixed types fail), so nested fields — and columns some row lacks, mixes types in, or holds
integers beyond int64 in — are stored as JSON strings; the file's metadata names those columns and
`read_parquet` decodes them.
"""
from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import orjson

JSON_COLUMNS_KEY = b"bc.json_columns"
LAYOUT_KEY = b"bc.layout"


def is_task_row(row: Any) -> bool:
    """A task row (bc-gen's shape): data_source, a prompt, and reward_model.ground_truth."""
    return (isinstance(row, dict) and isinstance(row.get("data_source"), str) and "prompt" in row
            and isinstance(row.get("reward_model"), dict) and "ground_truth" in row["reward_model"])


def write_parquet(rows: Iterable[dict[str, Any]], path: str | Path) -> int:
    """Write dict rows, published atomically. Task rows get verl's layout; other rows keep scalar columns
    native and nested ones as JSON text."""
    rows = list(rows)
    if rows and all(is_task_row(r) for r in rows):
        return write_verl_parquet(rows, path)
    return write_json_columns(rows, path)


def write_json_columns(rows: list[dict[str, Any]], path: str | Path) -> int:
    """Any dict rows: scalar columns native, nested ones (and columns of mixed type, missing keys or integers
    beyond int64) as JSON text named in the metadata. Task rows were written this way before verl's layout."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from .jsonl import AtomicFile

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


def write_verl_parquet(task_rows: Iterable[dict[str, Any]], path: str | Path) -> int:
    """Task rows as verl RL rows (`verl_rows.verl_rows`), native columns; `read_parquet` gives the rows back."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from .jsonl import AtomicFile
    from .verl_rows import verl_rows

    rows = verl_rows(task_rows)
    table = pa.Table.from_pylist(rows)
    table = table.replace_schema_metadata({**(table.schema.metadata or {}), LAYOUT_KEY: b"verl-task"})
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
    """Rows of a parquet file; columns written by `write_parquet` as JSON come back as objects, and verl rows
    (ours: bc-gen, bc-filter, bc-train) as the task rows they were made from."""
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
    from .verl_rows import is_verl_row, task_row

    if rows and (meta.get(LAYOUT_KEY) == b"verl-task" or all(is_verl_row(r) for r in rows)):
        return [task_row(r) for r in rows]
    for row in rows:
        for col in json_cols:
            value = row.get(col)
            if isinstance(value, str):
                row[col] = loads(value)
            elif value is None and col in row:
                del row[col]
    return rows
