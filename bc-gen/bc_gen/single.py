"""`bc-gen BOOTCAMP -n N`: rows 0..N-1 of one bootcamp with its default generator config."""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bc_common.errors import ConfigError, InputError
from bc_common.jsonl import STREAM_DELAY, AtomicFile, loads, write_batched
from bc_common.locks import OutputLock
from bc_common.parquet_io import write_parquet
from bc_common.readers import read_records
from bc_common.records import task_identity
from bc_common.tasks import DedupKey, TaskFactory, TaskSet

from .generate import Factories, GenStats, generate


@dataclass
class SingleRun:
    bootcamp: str
    n: int = 10
    seed: int = 0
    split: str = "train"
    shard: tuple[int, int] = (0, 1)
    jobs: int = 1
    params: dict[str, Any] = field(default_factory=dict)
    no_tool: bool = False
    no_interaction: bool = False
    dedup: bool = True
    exclude: list[str] = field(default_factory=list)
    groups: list[str] = field(default_factory=list)  # empty: every group of the bootcamp, mixed by ratio
    image_dir: str | None = None  # images as files named by content hash, referenced relative to the output
    ratios: dict[str, float] | None = None  # the groups' mix instead of the manifest's (bc-gen --curriculum)


def parse_shard(text: str | None) -> tuple[int, int]:
    """'2/4' -> (2, 4); K counts from 0."""
    if not text:
        return 0, 1
    k, sep, m = text.partition("/")
    try:
        k_i, m_i = int(k), int(m)
    except ValueError:
        raise ConfigError(f"--shard {text!r}: expected K/M, e.g. 0/4") from None
    if not sep or m_i < 1 or not 0 <= k_i < m_i:
        raise ConfigError(f"--shard {text!r}: need 0 <= K < M")
    return k_i, m_i


def task_set(run: SingleRun) -> TaskSet:
    return TaskSet(run.bootcamp, seed=run.seed, split=run.split, groups=None if run.ratios else run.groups or None,
                   params=run.params, tools=not run.no_tool, interaction=not run.no_interaction, ratios=run.ratios)


def _exclusion_row(row: Any) -> None:
    """An --exclude row: a task row, or a trajectory (its `input` task) — anything else names FILE:LINE."""
    task = row.get("input", row) if isinstance(row, dict) else row
    if not isinstance(task, dict) or not isinstance(task.get("reward_model"), dict) \
            or "ground_truth" not in task["reward_model"]:
        raise InputError("not a task row (no reward_model.ground_truth) to exclude", field="reward_model")


def excluded_hashes(paths: list[str], factory: TaskFactory) -> set[DedupKey]:
    """Identity hashes of the task rows (or trajectories' tasks) in `paths`, to keep a new split disjoint."""
    return {factory.identity_hash(task_identity(rec.data.get("input", rec.data)))
            for rec in read_records(paths, validate=_exclusion_row)}


def iter_rows(run: SingleRun, stats: GenStats) -> Any:
    tasks = task_set(run)
    factories = Factories(tasks.specs, [tasks.factory(g) for g in range(len(tasks.specs))])
    k, m = run.shard
    emit = None if m == 1 else set(range(k, run.n, m))
    seen = excluded_hashes(run.exclude, factories[0]) if run.exclude else set()
    return generate(tasks.specs, range(run.n), group_of=tasks.group_of, emit=emit, jobs=run.jobs,
                    dedup=run.dedup, seen=seen, stats=stats, factories=factories)


def run_single(run: SingleRun, out: str = "-", fmt: str = "jsonl") -> GenStats:
    """Write the rows to `out` ('-' = stdout; files are published atomically)."""
    stats = GenStats()
    if run.image_dir and fmt == "parquet":
        raise ConfigError("--image-dir is for JSONL output; parquet embeds the image bytes (verl's images column)")
    if fmt == "parquet" and out == "-":
        raise ConfigError("--format parquet needs -o FILE")
    with OutputLock(out, prog="bc-gen"):  # one writer per output; clears temp files a killed run left
        _write_rows(run, out, fmt, stats)
    return stats


def _write_rows(run: SingleRun, out: str, fmt: str, stats: GenStats) -> None:
    rows = iter_rows(run, stats)
    if run.image_dir:
        from bc_common.images import ImageFiles, externalize_line

        files = ImageFiles(run.image_dir, relative_to=Path(out).parent if out != "-" else Path("."))
        rows = (externalize_line(line, files) for line in rows)
    if fmt == "parquet":
        write_parquet([loads(line) for line in rows], out)
    elif out == "-":
        stream = sys.stdout.buffer
        try:  # joined writes (one system call per batch where stdout is unbuffered); a slow bootcamp's rows as made
            write_batched(stream, rows, max_delay=STREAM_DELAY)
            stream.flush()
        except BrokenPipeError:  # `bc-gen ... | head` is fine
            sys.stderr.close()
    else:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        with AtomicFile(out) as fh:
            fh.writelines(rows)
