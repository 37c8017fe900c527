"""Resume: keep the finished trajectories of an output file, drop errored ones and a torn last line, republish
atomically.

After `kill -9` the file may end in half a line: that line (and only that one) is dropped. Every `status: error`
row is dropped so that it reruns. Anything else that is not a finished trajectory of this run (a corrupt line in
the middle, a row of another model, a second row for one (task, sample)) is an InputError naming `OUT:LINE`,
and the file is left as it was.
"""
from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from bc_common.errors import ConfigError, InputError
from bc_common.jsonl import AtomicFile
from bc_common.stamps import stamp_of


@dataclass
class ResumeState:
    """What an existing output held: the keys of the kept rows, and what was dropped."""

    done: set[tuple[str, int]] = field(default_factory=set)
    dropped_errors: int = 0
    torn_line: int | None = None  # the line number of a dropped torn last line

    @property
    def dropped_torn(self) -> int:
        return int(self.torn_line is not None)


def prepare_resume(path: str | Path, on_kept: Callable[[dict[str, Any]], None] | None = None, *,
                   model: str | None = None, samples: int | None = None,
                   stamp_now: Callable[[dict[str, Any]], dict[str, str] | None] | None = None) -> ResumeState:
    """Read `path` (missing is fine), rewrite it with the good rows only, and return what is done.

    `on_kept` sees every kept row (the summary counts them). With `model` / `samples`, a row of another model or
    a sample index beyond `samples` is not a trajectory of this run: InputError. With `stamp_now` (the stamp of
    the code that would grade a row now), a kept row graded by other code of its bootcamp is refused: ConfigError
    naming the bootcamp and both hashes. A refusal leaves the file as it was."""
    state = ResumeState()
    p = Path(path)
    if not p.exists():
        return state
    mode = p.stat().st_mode & 0o777
    first_seen: dict[tuple[str, int], int] = {}
    with open(p, "rb") as fh, AtomicFile(p) as out:  # streamed: outputs may be far larger than memory
        lineno = 0
        for line in fh:
            lineno += 1
            if not line.strip():
                continue
            row = _row(line, str(p), lineno, last=not line.endswith(b"\n"))
            if row is None:
                state.torn_line = lineno
                continue
            key = (row["task_id"], row["sample"])
            if model is not None and row.get("model") != model:
                raise InputError(f"a trajectory of model {row.get('model')!r}, not of this run's {model!r} "
                                 "(write to another -o, or --force)", source=str(p), line=lineno, field="model")
            if samples is not None and row["sample"] >= samples:
                raise InputError(f"sample {row['sample']} is beyond this run's --samples {samples} "
                                 "(write to another -o, or --force)", source=str(p), line=lineno, field="sample")
            if row["status"] == "error":
                state.dropped_errors += 1
                continue
            if key in first_seen:
                raise InputError(f"a second trajectory for task {key[0]!r} sample {key[1]} (the first is line "
                                 f"{first_seen[key]}); two tasks share an id?", source=str(p), line=lineno,
                                 field="task_id")
            if stamp_now is not None:
                _check_stamp(row, stamp_now(row), str(p), lineno)
            first_seen[key] = lineno
            state.done.add(key)
            out.write(line if line.endswith(b"\n") else line + b"\n")
            if on_kept is not None:
                on_kept(row)
    os.chmod(p, mode)
    return state


def _check_stamp(row: dict[str, Any], now: dict[str, str] | None, source: str, lineno: int) -> None:
    before = stamp_of(row)
    if before is None or now is None or before["code_hash"] == now["code_hash"]:
        return
    name = (row.get("input") or {}).get("data_source", "?")
    raise ConfigError(f"{source}:{lineno}: --resume across a changed bootcamp: {name} code_hash {before['code_hash']} "
                      f"({before['bootcamp_version']}) then, {now['code_hash']} ({now['bootcamp_version']}) now. "
                      "Write to another -o, re-grade the kept rows with --rescore, or --force to mix them")


def _row(line: bytes, source: str, lineno: int, last: bool) -> dict[str, Any] | None:
    """The trajectory on `line`; None for a torn last line (no newline: a write cut short); InputError for
    anything else that is not a trajectory."""
    try:
        row = orjson.loads(line)
    except orjson.JSONDecodeError:
        if last:
            return None
        raise InputError("not valid JSON: a corrupt line in the middle of the output (only a torn last line is "
                         "dropped); repair or remove it", source=source, line=lineno) from None
    if not isinstance(row, dict) or not isinstance(row.get("task_id"), str) or \
            isinstance(row.get("sample"), bool) or not isinstance(row.get("sample"), int) or row["sample"] < 0 or \
            not isinstance(row.get("status"), str):
        raise InputError("not a bc-eval trajectory (needs task_id, sample and status): is this the right -o?",
                         source=source, line=lineno)
    return row
