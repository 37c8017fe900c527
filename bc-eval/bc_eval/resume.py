"""Resume: keep the finished trajectories of an output file, drop errored and torn ones, republish atomically.

After `kill -9` the file may end in half a line; that line and every `status: error` row are dropped, and
each (task_id, sample) is kept once, so the rerun appends exactly what is missing.
"""
from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from bc_common.jsonl import AtomicFile


@dataclass
class ResumeState:
    """What an existing output held: the keys of the kept rows, and what was dropped."""

    done: set[tuple[str, int]] = field(default_factory=set)
    dropped_errors: int = 0
    dropped_torn: int = 0
    dropped_duplicates: int = 0


def prepare_resume(path: str | Path, on_kept: Callable[[dict[str, Any]], None] | None = None) -> ResumeState:
    """Read `path` (missing is fine), rewrite it with the good rows only, and return what is done.

    `on_kept` sees every kept row (the summary counts them)."""
    state = ResumeState()
    p = Path(path)
    if not p.exists():
        return state
    mode = p.stat().st_mode & 0o777
    with open(p, "rb") as fh, AtomicFile(p) as out:  # streamed: outputs may be far larger than memory
        for line in fh:
            if not line.strip():
                continue
            try:
                row = orjson.loads(line)
                key = (row["task_id"], int(row["sample"]))
                status = row["status"]
            except (orjson.JSONDecodeError, KeyError, TypeError, ValueError):
                state.dropped_torn += 1
                continue
            if status == "error":
                state.dropped_errors += 1
                continue
            if key in state.done:
                state.dropped_duplicates += 1
                continue
            state.done.add(key)
            out.write(line if line.endswith(b"\n") else line + b"\n")
            if on_kept is not None:
                on_kept(row)
    os.chmod(p, mode)
    return state
