"""The standard pipeline behind `bc-filter`, as one function call.

    stats = filter_trajectories(["traj.jsonl"], "sft.jsonl", min_score=0.9, best_per_task=True, to="sft")

Stage order: row filters (AND) -> pass/fail-only tasks -> best per task -> token drift -> expand prefixes -> dedup
-> shape.
"""
from __future__ import annotations

import math
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bc_common.records import check_task, check_trajectory

from .filters import (
    filter_by_bootcamp,
    filter_by_data_source,
    filter_by_generator,
    filter_by_score,
    filter_by_split,
    filter_by_status,
    filter_by_success,
    filter_by_turns,
    filter_has_tool_error,
)
from .paths import where as where_condition
from .processor import Processor
from .select import BestPerTask, Dedup, TaskOutcome
from .stats import ProcessStats
from .transforms import SHAPES, expand_messages_prefixes, strip_row_images, task_key

if TYPE_CHECKING:
    from .drift import DriftCheck


def check_trajectory_or_task(row: Any) -> None:
    """What a pipeline without stages (a format conversion) accepts: a trajectory, or a task row."""
    if isinstance(row, dict) and "prompt" in row and "messages" not in row and "task_id" not in row:
        check_task(row)
    else:
        check_trajectory(row)


check_trajectory_or_task.trajectory_rules = True  # type: ignore[attr-defined]  # a trajectory: check_trajectory's rules


def build_processor(*, min_score: float | None = None, max_score: float | None = None,
                    status: Iterable[str] = (), success: bool = False, data_source: str | None = None,
                    bootcamp: Iterable[str] = (), split: Iterable[str] = (), generator: Iterable[str] = (),
                    min_turns: int | None = None, max_turns: int | None = None, has_tool_error: bool = False,
                    where: Iterable[str] = (), best_per_task: bool = False, pass_only_tasks: bool = False,
                    fail_only_tasks: bool = False, dedup: bool = False, expand_prefixes: bool = False,
                    to: str | None = None, strip_images: bool = False,
                    token_drift: DriftCheck | None = None) -> Processor:
    """A Processor doing what the matching `bc-filter` flags do. Raises ValueError on contradictory or
    malformed options (an unknown `to` shape, a bad `where` condition, both pass- and fail-only)."""
    if pass_only_tasks and fail_only_tasks:
        raise ValueError("--pass-only-tasks and --fail-only-tasks exclude each other")
    for name, value in (("min_score", min_score), ("max_score", max_score)):
        if value is not None and not math.isfinite(float(value)):
            raise ValueError(f"{name} must be a finite number, got {value!r}")
    if to is not None and to not in SHAPES:
        raise ValueError(f"unknown shape {to!r}; choose from {', '.join(SHAPES)}")
    p = Processor()
    if data_source is not None:
        p.add_filter(filter_by_data_source(data_source))
    for names, factory in ((bootcamp, filter_by_bootcamp), (split, filter_by_split),
                           (generator, filter_by_generator), (status, filter_by_status)):
        names = [names] if isinstance(names, str) else list(names)
        if names:
            p.add_filter(factory(names))
    if success:
        p.add_filter(filter_by_success)
    if min_score is not None or max_score is not None:
        p.add_filter(filter_by_score(min_score, max_score))
    if min_turns is not None or max_turns is not None:
        p.add_filter(filter_by_turns(min_turns, max_turns))
    if has_tool_error:
        p.add_filter(filter_has_tool_error)
    for condition in [where] if isinstance(where, str) else where:
        p.add_filter(where_condition(condition))
    if pass_only_tasks or fail_only_tasks:
        p.add_selector(TaskOutcome("pass" if pass_only_tasks else "fail"))
    if best_per_task:
        p.add_selector(BestPerTask())
    if token_drift is not None:  # on whole trajectories: before prefixes cut them
        p.add_transformer(token_drift)
    if expand_prefixes:
        p.add_transformer(expand_messages_prefixes)
    if dedup:
        p.add_selector(Dedup())
    if to is not None:
        p.add_transformer(SHAPES[to])
        if to == "task":
            p.add_selector(Dedup(task_key, label="one row per task"))
    if strip_images:
        p.add_transformer(strip_row_images)
    return p


def filter_trajectories(inputs: str | Path | Iterable[str | Path] = "-", output: str | Path = "-", *,
                        skip_invalid: bool = False, jobs: int | None = None, **options: object) -> ProcessStats:
    """Run `build_processor(**options)` from `inputs` to `output` ('-' = stdin/stdout); return the stats. `jobs`:
    worker processes for a large input file (None: one per core; see Processor.process)."""
    return build_processor(**options).process(inputs, output, skip_invalid=skip_invalid,  # type: ignore[arg-type]
                                              jobs=jobs)
