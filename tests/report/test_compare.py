"""Pairing two runs' rows by (task id, sample) for `--compare`: the numpy join against a plain dict reference."""
from __future__ import annotations

import random

from bc_report.analysis import Columns
from bc_report.compare import _matched
from bc_report.runs import Run


def _row(task: str, sample: int, score: float) -> dict:
    return {"id": f"{task}#{sample}", "task_id": task, "input": {"data_source": "bootcamp/x"}, "messages": [],
            "score": score, "status": "completed", "sample": sample, "model": "m"}


def _run(label: str, rows: list[dict]) -> Run:
    run = Run(label)
    for row in rows:
        run.add(row)
    return run


def _reference(base: list[dict], other: list[dict]) -> tuple[list[int], list[int], list[str]]:
    """Base rows in order that the other run also has, the other's row for each, and the pair's task."""
    where = {(r["task_id"], r["sample"]): j for j, r in enumerate(other)}
    pairs = [(i, where[(r["task_id"], r["sample"])], r["task_id"]) for i, r in enumerate(base)
             if (r["task_id"], r["sample"]) in where]
    return [p[0] for p in pairs], [p[1] for p in pairs], [p[2] for p in pairs]


def test_rows_pair_by_task_and_sample_as_a_dict_join_would():
    draw = random.Random(7)
    for _ in range(30):
        keys = [(f"task-{t}", s) for t in range(draw.randint(0, 12)) for s in (0, 1, 2, 63, 64, 65, 10**9)]
        base = [_row(t, s, draw.random()) for t, s in draw.sample(keys, draw.randint(0, len(keys)))]
        other = [_row(t, s, draw.random()) for t, s in draw.sample(keys, draw.randint(0, len(keys)))]
        a, b = Columns(_run("a", base)), Columns(_run("b", other))
        rows_a, rows_b, task = _matched(a, b)
        want_a, want_b, want_task = _reference(base, other)
        assert rows_a.tolist() == want_a and rows_b.tolist() == want_b
        assert [a.run.task_ids[t] for t in task.tolist()] == want_task


def test_runs_with_no_common_task_have_no_pairs():
    a = Columns(_run("a", [_row("x", 0, 1.0), _row("x", 1, 0.0)]))
    b = Columns(_run("b", [_row("y", 0, 1.0)]))
    assert all(len(part) == 0 for part in _matched(a, b))
    assert all(len(part) == 0 for part in _matched(a, Columns(_run("c", []))))
    assert all(len(part) == 0 for part in _matched(Columns(_run("c", [])), b))
