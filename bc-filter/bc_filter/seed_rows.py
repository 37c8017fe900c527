"""The seed's evaluator rows (`run_evaluation` output), converted on read into our trajectory rows.

A seed row has `input` (the task), `messages`, `score` and `success`, and no `task_id` or `status`. Its
`success` means "ran without an exception", not "solved"; converted, `status` says how it ended (`error`
when it raised, `max_turns` when `reached_max_turns`, else `completed`) and `success` takes our meaning
(completed and score 1.0). The sample index is the row's occurrence of its task in the input (0, 1, ...).
Seed-only fields stay as they are, except header values in `evaluation_config` (the seed recorded
credentials there), which are redacted.

    seed = SeedRows()
    row = seed.convert(row) if is_seed_row(row) else row
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from bc_common.errors import InputError
from bc_common.records import task_id

REDACTED = "[redacted]"


def is_seed_row(row: Any) -> bool:
    """True for a row of the seed's evaluator: a task `input` and `messages`, but no `task_id`/`status`."""
    return (type(row) is dict and type(row.get("input")) is dict and type(row.get("messages")) is list
            and "task_id" not in row and "status" not in row)


def _score(value: Any) -> float:
    if value is None:  # the seed ran without a verifier
        return 0.0
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError(f"field 'score' must be a number, got {type(value).__name__}", field="score")
    return float(value)


def _redacted(config: Any) -> Any:
    if not isinstance(config, dict) or not isinstance(config.get("api_extra_headers"), dict):
        return config
    return {**config, "api_extra_headers": dict.fromkeys(config["api_extra_headers"], REDACTED)}


class SeedRows:
    """Converts seed rows in input order; counts samples per task."""

    def __init__(self) -> None:
        self.samples: Counter[str] = Counter()

    def convert(self, row: dict[str, Any]) -> dict[str, Any]:
        """Our trajectory row for a seed evaluator row. Raises InputError naming a field it cannot use."""
        task = row["input"]
        tid = task_id(task)
        sample = self.samples[tid]
        self.samples[tid] += 1
        score = _score(row.get("score"))
        message = row.get("error")
        failed = bool(message) or row.get("success") is False
        status = "error" if failed else "max_turns" if row.get("reached_max_turns") else "completed"
        config = row.get("evaluation_config") if isinstance(row.get("evaluation_config"), dict) else {}
        usage = row.get("token_usage") if isinstance(row.get("token_usage"), dict) else {}
        out: dict[str, Any] = {
            "id": f"{tid}#{sample}", "task_id": tid, "input": task, "model": str(config.get("model") or "unknown"),
            "sample": sample, "messages": row["messages"], "tools": row.get("tools") or [], "turns": [],
            "score": score, "reward": {"score": score},
            "status": status,
            "error": {"type": "seed_error", "message": str(message or "the seed's evaluator failed")}
            if failed else None,
            "success": status == "completed" and score >= 1.0,
            "usage": usage, "timing": {},
        }
        for key, value in row.items():  # what only the seed recorded stays
            if key not in out:
                out[key] = _redacted(value) if key == "evaluation_config" else value
        return out
