"""The summary: the unbiased pass@k estimator and per-group aggregates."""
from __future__ import annotations

import math

import pytest

from bc_eval.summary import Summary, pass_at_k


@pytest.mark.parametrize("n,c,k", [(5, 0, 1), (5, 1, 1), (5, 2, 3), (10, 3, 5), (4, 4, 2), (3, 1, 3)])
def test_pass_at_k_matches_the_combinatorial_formula(n, c, k):
    assert pass_at_k(n, c, k) == pytest.approx(1 - math.comb(n - c, k) / math.comb(n, k))


def row(task: str, sample: int, success: bool, status: str = "completed", source: str = "bootcamp/a",
        gen: str = "easy", tool_error: bool = False) -> dict:
    return {"task_id": task, "sample": sample, "score": 1.0 if success else 0.0, "success": success,
            "status": status, "input": {"data_source": source, "extra_info": {"generator_name": gen}},
            "num_turns": {"assistant": 2}, "usage": {"prompt_tokens": 10, "completion_tokens": 5},
            "turns": [{"type": "model", "latency_s": 0.1 * (sample + 1), "error": None},
                      {"type": "tool", "error": {"type": "x"} if tool_error else None}]}


def test_groups_pass_at_k_and_statuses():
    summary = Summary(k=2)
    for r in [row("t1", 0, True), row("t1", 1, False, tool_error=True), row("t2", 0, False, "error"),
              row("t2", 1, False, "max_turns"), row("t3", 0, True, source="bootcamp/b", gen="hard"),
              row("t3", 1, True, source="bootcamp/b", gen="hard")]:
        summary.add(r)
    report = summary.report()
    a = report["by_data_source"]["bootcamp/a"]
    assert a["count"] == 4 and a["tasks"] == 2 and a["mean_score"] == 0.25
    assert a["pass@1"] == pytest.approx(0.25) and a["pass@2"] == pytest.approx(0.5)
    assert a["status"] == {"completed": 2, "max_turns": 1, "length": 0, "error": 1}
    assert a["tool_error_rate"] == 0.25 and a["prompt_tokens"] == 40
    assert a["latency_p50_s"] == pytest.approx(0.15) and a["latency_p95_s"] == pytest.approx(0.2)
    assert report["by_generator"]["bootcamp/b:hard"]["pass@2"] == 1.0
    assert report["total"]["count"] == 6
    table = summary.table()
    assert "bootcamp/a" in table and "bootcamp/b:hard" in table and "pass@2" in table
    assert summary.csv().splitlines()[0].startswith("level,group,count,tasks,mean_score")


def test_tasks_are_folded_once_their_samples_are_in_and_interleaving_does_not_change_the_figures():
    rows = [row(f"t{i}", s, (i * 7 + s) % 3 == 0) for i in range(40) for s in range(3)]
    together, interleaved = Summary(k=3), Summary(k=3)
    for r in rows:
        together.add(r)
    for s in range(3):  # every task's first sample, then the second ones, ...
        for r in rows[s::3]:
            interleaved.add(r)
    assert together.report()["total"] == interleaved.report()["total"]
    assert together.total.tasks == {} and together.total.folded == 40  # nothing per task is held any more
    partial = Summary(k=3)
    for r in rows[:4]:  # t0 whole, t1 one sample in: an open task counts with the samples it has
        partial.add(r)
    assert partial.report()["total"]["tasks"] == 2 and len(partial.total.tasks) == 1


def test_latencies_beyond_the_exact_limit_are_bucketed_within_half_a_percent(monkeypatch):
    from bc_eval import summary as module

    monkeypatch.setattr(module, "EXACT_LATENCIES", 100)
    exact, bucketed = Summary(), Summary()
    values = [0.01 * (1.037 ** i) for i in range(400)] + [0.0]
    for i, v in enumerate(values):
        r = row(f"t{i}", 0, True)
        r["turns"] = [{"type": "model", "latency_s": v, "error": None}]
        bucketed.add(r)
    exact_p50 = module._percentile(values, 0.5)
    exact_p95 = module._percentile(values, 0.95)
    got = bucketed.report()["total"]
    assert bucketed.total.latencies.values is None  # past the limit: buckets
    assert got["latency_p50_s"] == pytest.approx(exact_p50, rel=0.006)
    assert got["latency_p95_s"] == pytest.approx(exact_p95, rel=0.006)
    assert exact.report()["total"]["latency_p50_s"] is None
