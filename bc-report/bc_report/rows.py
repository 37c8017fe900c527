"""The fields bc-report reads from a trajectory, checked before they reach a column: a number a real run cannot
produce (`score: 1e308`, `sample: 10**30`) is an input error naming FILE:LINE and the field, not a 300-digit mean."""
from __future__ import annotations

import math
from typing import Any

from bc_common.errors import InputError
from bc_common.records import check_trajectory

MAX_SAMPLE = 10**9  # bc-eval's samples per task are counted in ones to thousands
MAX_TOKENS = 10**9  # as bc-eval's client: no real context holds more
MAX_SECONDS = 10**7  # about four months of wall time for one trajectory
MAX_COST = 10**6  # USD for one trajectory: a million dollars is a typo in a price


def _number(value: Any, name: str, low: float, high: float, *, integer: bool = False) -> None:
    kind = "an integer" if integer else "a number"
    ok = not isinstance(value, bool) and (isinstance(value, int) if integer else isinstance(value, (int, float)))
    if not ok or not math.isfinite(value) or not low <= value <= high:
        raise InputError(f"field {name!r} must be {kind} between {low:g} and {high:g}, got {_shown(value)}",
                         field=name)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def check_report_row(row: Any) -> None:
    """check_trajectory, then the ranges of every field bc-report counts (score in [0, 1], sample, tokens, wall
    time) and the types of the keys it groups by (id, task_id, model)."""
    check_trajectory(row)
    _number(row["score"], "score", 0, 1)
    for name in ("id", "task_id"):
        if not isinstance(row[name], str) or not row[name]:
            raise InputError(f"field {name!r} must be a non-empty string", field=name)
    if "sample" in row:
        _number(row["sample"], "sample", 0, MAX_SAMPLE, integer=True)
    if row.get("model") is not None and not isinstance(row["model"], str):
        raise InputError("field 'model' must be a string", field="model")
    usage = row.get("usage")
    if isinstance(usage, dict):
        for key in ("prompt_tokens", "completion_tokens"):
            if usage.get(key) is not None:
                _number(usage[key], f"usage.{key}", 0, MAX_TOKENS, integer=True)
    cost = row.get("cost")
    if isinstance(cost, dict) and cost.get("usd") is not None:
        _number(cost["usd"], "cost.usd", 0, MAX_COST)
    timing = row.get("timing")
    if isinstance(timing, dict) and timing.get("wall_s") is not None:
        _number(timing["wall_s"], "timing.wall_s", 0, MAX_SECONDS)
