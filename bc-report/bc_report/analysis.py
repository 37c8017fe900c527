"""The report's tables: one row per run at each level (overall, bootcamp, bootcamp/group) with n, mean score,
pass@k and their 95% task-bootstrap intervals, status counts, turns, tool use, tokens and latency; and the tool
error table (by bootcamp, tool and error type)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from bc_common.records import STATUSES

from .runs import Run
from .stats import Estimate, percentiles, rng_for, task_estimates


def _np(values) -> np.ndarray:
    return np.frombuffer(values, dtype=values.typecode) if len(values) else np.zeros(0, dtype=values.typecode)


class Columns:
    """A run's accumulated columns as numpy arrays (no copies), plus one array per task field."""

    def __init__(self, run: Run):
        self.run = run
        self.names = run.group_names()
        self.bootcamp_of = np.array([b for b, _ in self.names] or [""], dtype=object)
        for name in ("score", "passed", "status", "group", "turns", "tool_calls", "tool_errors", "prompt_tokens",
                     "completion_tokens", "cost", "wall_s", "started", "latency", "latency_group", "row_task", "row_sample"):
            setattr(self, name, _np(getattr(run, name)))
        self.task_n = _np(run.task_n).astype(np.int64)
        self.task_c = _np(run.task_c).astype(np.int64)
        self.task_sum = _np(run.task_sum)
        self.task_group = _np(run.task_group).astype(np.int64)

    @cached_property
    def min_samples(self) -> int:
        return int(self.task_n.min()) if len(self.task_n) else 1

    def codes(self, bootcamp: str | None = None, group: str | None = None) -> np.ndarray:
        """Group codes of a level: all, one bootcamp, or one bootcamp's group."""
        return np.array([i for i, (b, g) in enumerate(self.names)
                         if (bootcamp is None or b == bootcamp) and (group is None or g == group)], dtype=np.int64)


@dataclass
class Level:
    """One table row: a run at one level."""

    run: str
    level: str  # overall | bootcamp | group
    bootcamp: str
    group: str
    n: int
    tasks: int
    estimates: dict[str, Estimate]
    status: dict[str, int]
    mean_turns: float
    mean_tool_calls: float
    tool_error_rate: float | None
    mean_prompt_tokens: float
    mean_completion_tokens: float
    latency_p50: float | None
    latency_p95: float | None
    cost_usd: float | None = None  # summed over the rows that carry a cost; None when none does

    @property
    def name(self) -> str:
        return {"overall": "all", "bootcamp": self.bootcamp}.get(self.level, f"{self.bootcamp}/{self.group}")


def level_row(cols: Columns, level: str, bootcamp: str, group: str, ks: list[int], n_boot: int, seed: int) -> Level:
    member = np.zeros(max(1, len(cols.names)), dtype=bool)  # group code -> in this level (a gather, not isin)
    member[cols.codes(bootcamp or None, group or None)] = True
    rows = member[cols.group]
    tasks = member[cols.task_group]
    n = int(rows.sum())
    calls = int(cols.tool_calls[rows].sum())
    latency = cols.latency if member.all() else cols.latency[member[cols.latency_group]]
    rng = rng_for(seed, cols.run.label, level, bootcamp, group)
    est = task_estimates(cols.task_n[tasks], cols.task_c[tasks], cols.task_sum[tasks], ks, n_boot, rng)
    status = np.bincount(cols.status[rows].astype(np.int64), minlength=len(STATUSES))

    def mean(values: np.ndarray) -> float:
        return float(values.mean()) if len(values) else 0.0

    return Level(cols.run.label, level, bootcamp, group, n, int(tasks.sum()), est,
                 {s: int(status[i]) for i, s in enumerate(STATUSES)},
                 mean(cols.turns[rows]), mean(cols.tool_calls[rows]),
                 int(cols.tool_errors[rows].sum()) / calls if calls else None,
                 mean(cols.prompt_tokens[rows]), mean(cols.completion_tokens[rows]),
                 *percentiles(latency, (0.5, 0.95)), _cost(cols.cost[rows]))


def _cost(values: np.ndarray) -> float | None:
    known = values[~np.isnan(values)]
    return float(known.sum()) if len(known) else None


def levels(cols: Columns, ks: list[int], n_boot: int, seed: int) -> dict[str, list[Level]]:
    """Rows of the overall, per-bootcamp and per-group tables of one run."""
    bootcamps = sorted({b for b, _ in cols.names})
    return {
        "overall": [level_row(cols, "overall", "", "", ks, n_boot, seed)],
        "bootcamp": [level_row(cols, "bootcamp", b, "", ks, n_boot, seed) for b in bootcamps],
        "group": [level_row(cols, "group", b, g, ks, n_boot, seed) for b, g in sorted(cols.names)],
    }


@dataclass
class ToolRow:
    run: str
    bootcamp: str
    tool: str
    calls: int
    errors: dict[str, int]  # error type -> count

    @property
    def error_rate(self) -> float:
        return sum(self.errors.values()) / self.calls if self.calls else 0.0


def tool_rows(run: Run) -> list[ToolRow]:
    """Tool calls and errors by bootcamp and tool, every error type counted."""
    names = run.group_names()
    calls: dict[tuple[str, str], int] = {}
    errors: dict[tuple[str, str], dict[str, int]] = {}
    for (group, tool), count in run.calls_by_tool.items():
        key = (names[group][0], tool)
        calls[key] = calls.get(key, 0) + count
    for (group, tool, etype), count in run.errors_by_tool.items():
        by_type = errors.setdefault((names[group][0], tool), {})
        by_type[etype] = by_type.get(etype, 0) + count
    return [ToolRow(run.label, b, t, calls[(b, t)], dict(sorted(errors.get((b, t), {}).items())))
            for b, t in sorted(calls)]
