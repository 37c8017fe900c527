"""Rows for verl's parquet files, with fixed per-row shapes.

Parquet unifies struct columns across rows: a key missing in one row becomes null there, and a key whose type
differs between rows fails the write. So everything whose shape depends on the bootcamp (identities, tool
create kwargs, interaction kwargs, tool schemas) is stored as JSON text in a fixed key (`bc_json`), and every
row carries the same tool names in `extra_info.tools_kwargs`.
"""
from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from bc_common.errors import InputError
from bc_common.verl_rows import (
    AGENT_NAME,
    IMAGES,
    JSON_KEY,
    dumps,
    has_image_parts,
    loads_json_field,
    verl_prompt,
    verl_row,
    with_images_column,
)

__all__ = ["AGENT_NAME", "IMAGES", "JSON_KEY", "check_fixed_shapes", "dumps", "loads_json_field", "rl_row",
           "row_kind", "sft_row", "with_images_column", "write_rows"]


def row_kind(row: Any) -> str:
    """'task' for bc-gen rows, 'sft' for trajectory or bc-filter SFT rows (they carry `messages`)."""
    if isinstance(row, dict) and isinstance(row.get("messages"), list):
        return "sft"
    if isinstance(row, dict) and "prompt" in row and "data_source" in row:
        return "task"
    raise InputError("neither a task row (prompt, data_source) nor a trajectory/SFT row (messages)")


def _message_text(msg: dict[str, Any], where: str) -> str:
    content = msg.get("content")
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # text content parts
        return "".join(str(p.get("text") or "") for p in content if isinstance(p, dict))
    raise InputError(f"{where}: message content must be a string", field="content")


def rl_row(row: dict[str, Any], tool_names: list[str], row_tools: list[str], index: int,
           base: Any = None) -> dict[str, Any]:
    """A verl RL row (RLHFDataset + our agent loop) from a bc-gen task row: `bc_common.verl_rows.verl_row`, on
    the run's agent loop.

    `tool_names` are all tools of the run (same keys in every row); `row_tools` the ones this row may use.
    Image parts become verl's `<image>` placeholders and `images` column (paths relative to `base`).
    """
    prompt = row["prompt"]
    for i, msg in enumerate(prompt if isinstance(prompt, list) else []):
        if not isinstance(msg, dict):
            raise InputError(f"prompt[{i}]: expected a chat message", field=f"prompt[{i}]")
        _message_text(msg, f"prompt[{i}]")
    out = verl_row(row, tool_names, index, selection=row_tools, base=base)
    out["agent_name"] = AGENT_NAME
    return out


def _tool_call(call: dict[str, Any], where: str) -> dict[str, Any]:
    fn = call.get("function") or {}
    if not isinstance(fn, dict):
        raise InputError(f"{where}.tool_calls: 'function' must be an object", field=where)
    args = fn.get("arguments", "{}")
    if not isinstance(args, str):  # keep arguments as JSON text: dict arguments would be unified across rows
        args = dumps(args)
    return {"id": str(call.get("id") or ""), "type": "function",
            "function": {"name": str(fn.get("name") or ""), "arguments": args}}


def sft_row(row: dict[str, Any], base: Any = None) -> dict[str, Any]:
    """A verl SFT row (messages + tools + enable_thinking) from a bc-filter SFT row or a trajectory row. Image
    parts become `<image>` placeholders in the text and an `images` column, as verl's MultiTurnSFTDataset reads
    them for vision-language models."""
    images = None
    source_messages = row["messages"]
    if has_image_parts(source_messages) and all(isinstance(m, dict) for m in source_messages):
        source_messages, found = verl_prompt(source_messages, base, where="messages")
        images = [{"bytes": b} for b in found]
    messages = []
    for i, msg in enumerate(source_messages):
        where = f"messages[{i}]"
        if not isinstance(msg, dict) or msg.get("role") not in ("system", "user", "assistant", "tool"):
            raise InputError(f"{where}: expected a chat message with a known role", field=where)
        calls = msg.get("tool_calls") or []
        if not isinstance(calls, list) or not all(isinstance(c, dict) for c in calls):
            raise InputError(f"{where}.tool_calls: expected a list of tool call objects", field=where)
        messages.append({
            "role": msg["role"],
            "content": _message_text(msg, where),
            "tool_calls": [_tool_call(c, where) for c in calls],
            "tool_call_id": str(msg.get("tool_call_id") or ""),
        })
    if not any(m["role"] == "assistant" for m in messages):
        raise InputError("no assistant message to learn from", field="messages")
    source = row.get("input") if isinstance(row.get("input"), dict) else row
    tools = row.get("tools") or []
    if not isinstance(tools, list) or not all(isinstance(t, dict) for t in tools):
        raise InputError("tools: expected a list of OpenAI tool schemas", field="tools")
    score = row.get("score") or 0.0
    if isinstance(score, bool) or not isinstance(score, (int, float)):
        raise InputError(f"score: expected a number, got {type(score).__name__}", field="score")
    out = {
        "id": str(row.get("id") or ""),
        "data_source": str(row.get("data_source") or source.get("data_source") or ""),
        "messages": messages,
        "tools": dumps(tools),
        "score": float(score),
    }
    if images is not None:
        out[IMAGES] = images
    return out


def shape(value: Any) -> Any:
    """The parquet-relevant shape of a value: key sets and leaf types, lists by their first element."""
    if isinstance(value, dict):
        return {k: shape(v) for k, v in sorted(value.items())}
    if isinstance(value, list):
        out: list[Any] = []
        for item in value:
            out = _merge(out, [shape(item)])
        return out
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "str"
    return type(value).__name__


def _merge(a: Any, b: Any) -> Any:
    """The common shape of `a` and `b` (an empty list fits any list), or raise ValueError."""
    if isinstance(a, list) and isinstance(b, list):
        if not a or not b:
            return a or b
        return [_merge(a[0], b[0])]
    if isinstance(a, dict) and isinstance(b, dict):
        if set(a) != set(b):
            raise ValueError(", ".join(sorted(set(a) ^ set(b))))
        return {k: _merge(a[k], b[k]) for k in a}
    if a != b:
        raise ValueError(f"{a} vs {b}")
    return a


class ShapeCheck:
    """`check_fixed_shapes` over a stream: `add` each row in order; the first row whose shape differs from the rows
    before it raises InputError naming it."""

    def __init__(self, what: str):
        self.what = what
        self.rows = 0
        self._common: Any = None

    def add(self, row: dict[str, Any]) -> None:
        i = self.rows
        self.rows += 1
        try:
            got = shape(row)
        except ValueError as exc:
            raise InputError(f"{self.what} row {i} mixes types inside a list ({exc})") from None
        if self._common is None:
            self._common = got
            return
        common = self._common
        try:
            self._common = _merge(common, got)
        except ValueError:
            bad = []
            for k in sorted(set(common) | set(got)):
                try:
                    _merge(common.get(k), got.get(k))
                except ValueError:
                    bad.append(k)
            raise InputError(f"{self.what} row {i} has a different shape in column(s) {', '.join(bad)}; "
                             f"parquet would unify it with nulls") from None


def check_fixed_shapes(rows: list[dict[str, Any]], what: str) -> None:
    """Raise InputError naming the first row whose shape differs from the rows before it."""
    check = ShapeCheck(what)
    for row in rows:
        check.add(row)


def write_rows(rows: Iterable[dict[str, Any]], path: str | Path) -> int:
    """Write rows as parquet with native (struct/list) columns, published atomically (all rows in memory: the
    reference `ParquetSink` is tested against)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from bc_common.jsonl import AtomicFile

    rows = list(rows)
    table = pa.Table.from_pylist(rows)
    with AtomicFile(path) as fh:
        pq.write_table(table, fh)
    os.chmod(path, 0o644)  # readable by the training job's other processes and nodes
    return len(rows)


# Rows are converted and written in row groups of this many rows (or fewer, past ROW_GROUP_BYTES of input): a run's
# memory does not grow with its rows. A file of one row group is the bytes `write_rows` writes.
ROW_GROUP_ROWS = 4096
ROW_GROUP_BYTES = 32 << 20


def row_bytes(row: dict[str, Any], raw: bytes | None) -> int:
    """About what a row weighs in a batch: its input line (4 kB when not read from JSONL) and its images."""
    images = row.get(IMAGES)
    weight = len(raw) if raw is not None else 4096
    if isinstance(images, list):
        weight += sum(len(item.get("bytes") or b"") for item in images if isinstance(item, dict))
    return weight


class Batches:
    """Collects rows into row groups: `add` returns a full batch to hand on (then starts the next), `rest` the
    last one."""

    def __init__(self) -> None:
        self._rows: list[dict[str, Any]] = []
        self._bytes = 0

    def add(self, row: dict[str, Any], raw: bytes | None) -> list[dict[str, Any]] | None:
        self._rows.append(row)
        self._bytes += row_bytes(row, raw)
        if len(self._rows) >= ROW_GROUP_ROWS or self._bytes >= ROW_GROUP_BYTES:
            return self.rest()
        return None

    def rest(self) -> list[dict[str, Any]]:
        rows, self._rows, self._bytes = self._rows, [], 0
        return rows


class SchemaOf:
    """The Arrow schema `pa.Table.from_pylist` gives the whole of a stream of rows, from one batch at a time (an
    empty list in one batch takes the element type another batch shows)."""

    def __init__(self) -> None:
        self._schemas: list[Any] = []

    def add(self, rows: list[dict[str, Any]]) -> None:
        import pyarrow as pa

        if rows:
            self._schemas.append(pa.Table.from_pylist(rows).schema)
            if len(self._schemas) > 1:
                self._schemas = [pa.unify_schemas(self._schemas, promote_options="permissive")]

    def schema(self) -> Any:
        import pyarrow as pa

        return self._schemas[0] if self._schemas else pa.Table.from_pylist([]).schema


class ParquetSink:
    """Writes rows to `path` in row groups with a schema known in advance, published atomically on `close`."""

    def __init__(self, path: Path, schema: Any):
        from bc_common.jsonl import AtomicFile

        self.path, self.schema, self.count = path, schema, 0
        self._file = AtomicFile(path)
        self._fh = self._file.__enter__()
        self._writer: Any = None
        self._batches = Batches()

    def add(self, row: dict[str, Any], raw: bytes | None) -> None:
        full = self._batches.add(row, raw)
        if full:
            self._write(full)

    def _write(self, rows: list[dict[str, Any]]) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        if self._writer is None:
            self._writer = pq.ParquetWriter(self._fh, self.schema)
        self._writer.write_table(pa.Table.from_pylist(rows, schema=self.schema))
        self.count += len(rows)

    def close(self) -> int:
        """Write the last row group and publish the file; returns the rows written."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        try:
            rest = self._batches.rest()
            if rest:
                self._write(rest)
            if self._writer is None:  # no rows: what write_rows writes for none
                pq.write_table(pa.Table.from_pylist([]), self._fh)
            else:
                self._writer.close()
        except BaseException as exc:
            self.abort(exc)
            raise
        self._file.__exit__(None, None, None)
        os.chmod(self.path, 0o644)  # readable by the training job's other processes and nodes
        return self.count

    def abort(self, exc: BaseException | None = None) -> None:
        """Drop the unpublished file."""
        self._file.__exit__(type(exc) if exc else RuntimeError, exc, None)
