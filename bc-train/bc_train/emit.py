"""Read the input rows, decide RL or SFT, and write the run directory (the library side of `bc-train -o`).

The rows are never all in memory: one pass checks them and decides the split, later passes convert and write
them (`bc_train.inputs`). Errors are the ones a run that read every row first would raise, in the same order.

    emit_run(["tasks.jsonl"], Path("runs/a"), TrainOptions())
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from bc_common.errors import InputError
from bc_common.identity import validate_task_identity
from bc_common.jsonl import Record
from bc_common.locks import OutputLock
from bc_common.paths import stdin_or
from bc_common.records import check_task, task_id

from .inputs import RunInputs
from .parquet_rows import row_kind
from .rl import SourceSeen, as_task, emit_rl
from .run_dir import check_run_dir_free
from .sft import emit_sft
from .split import Holdout, Split, marked_val
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


class _First:
    """The first error of one kind met in a pass, raised once the pass is over (errors of an earlier check win,
    whichever row comes first)."""

    def __init__(self) -> None:
        self.error: InputError | None = None

    def note(self, error: InputError) -> None:
        if self.error is None:
            self.error = error

    def raise_any(self) -> None:
        if self.error is not None:
            raise self.error


def _task_errors(rec: Record, first: _First) -> None:
    try:
        check_task(rec.data)
    except InputError as exc:
        first.note(InputError(exc.reason, source=rec.source, line=rec.line, field=exc.field))
        return
    try:
        validate_task_identity(rec.data, rec.source, rec.line)  # a wrong ground truth never reaches training
    except InputError as exc:
        first.note(exc)


def _emit_run(files: list[str], out_dir: Path, opts: TrainOptions, mode: str | None, val_file: str | None,
              tool_config: Path | None, registry: Path | None, force: bool) -> dict[str, Any]:
    reads = [*(("FILES", path) for path in stdin_or(files)), ("--val", val_file), ("--tool-config", tool_config),
             ("--registry", registry)]
    check_run_dir_free(out_dir, force=force, reads=reads)
    with RunInputs(files, val_file) as inputs:
        # the one pass that reads every row before anything is written: kinds, the checks of task rows, the split
        first_kind = rows_mode = None
        first_where: tuple[str, int] = ("", 0)
        kind_error, task_error = _First(), _First()
        holdout, marked, n = Holdout(), 0, 0
        sources = SourceSeen()
        for rec in inputs.rows():
            row, n = n, n + 1
            try:
                kind = _kind(rec)
            except InputError as exc:
                kind_error.note(exc)
                continue
            if row == 0:
                first_kind, first_where = kind, (rec.source, rec.line)
                rows_mode = mode or ("rl" if kind == "task" else "sft")
            elif kind != first_kind:
                kind_error.note(InputError(f"mixes {first_kind} rows with {kind} rows", source=rec.source,
                                           line=rec.line))
            if kind_error.error is not None:
                continue  # the run stops at that error: nothing more to learn from the rows
            if rows_mode == "rl":
                if first_kind != "task":  # trajectories carry their task row: train RL on those tasks
                    rec = as_task(rec)
                _task_errors(rec, task_error)
                if task_error.error is None:
                    is_marked = marked_val(rec.data)
                    marked += is_marked
                    holdout.add(row, task_id(rec.data), sources.first_of(rec, row, is_marked))
            else:
                holdout.add(row, str(rec.data.get("id") or rec.line))
        for val_row, rec in enumerate(inputs.val_rows()):
            if rows_mode == "rl" and kind_error.error is None:
                _task_errors(rec, task_error)
                if task_error.error is None:
                    sources.first_in_val(rec, val_row)
        if not n:
            raise InputError("no input rows", source=files[0] if files else "<stdin>")
        kind_error.raise_any()
        if rows_mode == "rl":
            task_error.raise_any()
            if val_file:
                split = Split("val-file")
            elif marked and marked < n:
                split = Split("marked", marked=marked_val)
            elif n < 2:
                split = Split("single", held=frozenset({0}))
            else:
                split = Split("holdout", held=frozenset(holdout.held()))
            return emit_rl(inputs, sources.in_order(split, holdout.held()), split, out_dir, opts,
                           to_task=first_kind != "task", tool_config=tool_config, registry=registry, force=force)
        if first_kind != "sft":
            raise InputError("--mode sft needs trajectory or SFT rows (with 'messages')", source=first_where[0],
                             line=first_where[1])
        if val_file:
            split = Split("val-file")
        elif n >= 20:
            split = Split("holdout", held=frozenset(holdout.held()))
        else:
            split = Split("none")
        return emit_sft(inputs, split, out_dir, opts, force=force)
