"""Read the input rows, decide RL or SFT, and write the run directory (the library side of `bc-train -o`).

    emit_run(["tasks.jsonl"], Path("runs/a"), TrainOptions())
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from bc_common.errors import InputError
from bc_common.jsonl import Record
from bc_common.locks import OutputLock
from bc_common.paths import stdin_or
from bc_common.readers import read_records

from .parquet_rows import row_kind
from .rl import emit_rl
from .run_dir import check_run_dir_free
from .sft import emit_sft
from .verl_config import TrainOptions


def _kind(rec: Record) -> str:
    try:
        return row_kind(rec.data)
    except InputError as exc:
        raise InputError(exc.reason, source=rec.source, line=rec.line) from None


def emit_run(files: list[str], out_dir: Path, opts: TrainOptions, mode: str | None = None,
             val_file: str | None = None, tool_config: Path | None = None, registry: Path | None = None,
             force: bool = False) -> dict[str, Any]:
    """Write an RL run (task rows) or an SFT run (trajectory / SFT rows); returns the manifest. `out_dir` must be
    missing or empty, or with `force` a previous run (cleared once the input is read and checked)."""
    with OutputLock(out_dir, prog="bc-train"):  # one writer per run directory
        return _emit_run(files, out_dir, opts, mode, val_file, tool_config, registry, force)


def _emit_run(files: list[str], out_dir: Path, opts: TrainOptions, mode: str | None, val_file: str | None,
              tool_config: Path | None, registry: Path | None, force: bool) -> dict[str, Any]:
    reads = [*(("FILES", path) for path in stdin_or(files)), ("--val", val_file), ("--tool-config", tool_config),
             ("--registry", registry)]
    check_run_dir_free(out_dir, force=force, reads=reads)
    records = list(read_records(files))
    val_records = list(read_records([val_file])) if val_file else None
    if not records:
        raise InputError("no input rows", source=files[0] if files else "<stdin>")
    first = _kind(records[0])
    for rec in records[1:]:
        if _kind(rec) != first:
            raise InputError(f"mixes {first} rows with {_kind(rec)} rows", source=rec.source, line=rec.line)
    mode = mode or ("rl" if first == "task" else "sft")
    if mode == "rl":
        if first != "task":  # trajectories carry their task row: train RL on those tasks
            records = [Record(r.data["input"], r.source, r.line) if isinstance(r.data.get("input"), dict) else r
                       for r in records]
        return emit_rl(records, out_dir, opts, val_records, tool_config=tool_config, registry=registry,
                       force=force)
    if first != "sft":
        raise InputError("--mode sft needs trajectory or SFT rows (with 'messages')",
                         source=records[0].source, line=records[0].line)
    return emit_sft(records, out_dir, opts, val_records, force=force)
