import random

from bc_common.jsonl import Record
from bc_filter import BestPerTask, Dedup, Processor, TaskOutcome, filter_by_score, rank_key

from .rows import eval_run, task, trajectory


def records(rows):
    return [Record(r, "t.jsonl", i) for i, r in enumerate(rows, 1)]


def ids(recs):
    return [r.data["id"] for r in recs]


def test_best_per_task_keeps_the_highest_score_in_first_appearance_order():
    rows = eval_run(n_tasks=3)  # task 0 all 1.0, task 1 best is sample 2, task 2 all 0.0
    out = ids(BestPerTask().select(records(rows)))
    assert len(out) == 3
    assert out[1] == rows[4]["task_id"] + "#2"
    assert [o.split("#")[0] for o in out] == [rows[0]["task_id"], rows[4]["task_id"], rows[8]["task_id"]]


def test_best_per_task_breaks_ties_the_same_way_whatever_the_order():
    t = task(0)
    rows = [trajectory(t, 0, score=1.0, assistant_turns=3),
            trajectory(t, 1, score=1.0, status="max_turns"),  # same score but not a success
            trajectory(t, 2, score=1.0),
            trajectory(t, 3, score=1.0)]
    for seed in range(5):
        shuffled = rows[:]
        random.Random(seed).shuffle(shuffled)
        assert ids(BestPerTask().select(records(shuffled))) == [t["id"] + "#2"]
    assert sorted(rows, key=rank_key)[0]["sample"] == 2


def test_task_outcome_pass_and_fail_only():
    rows = eval_run(n_tasks=3)
    passed = ids(TaskOutcome("pass").select(records(rows)))
    failed = ids(TaskOutcome("fail").select(records(rows)))
    assert passed == [r["id"] for r in rows[:4]]
    assert failed == [r["id"] for r in rows[8:]]


def test_task_outcome_judges_on_all_samples_even_after_filters():
    rows = eval_run(n_tasks=3)
    p = Processor().add_filter(filter_by_score(max_score=0.0)).add_selector(TaskOutcome("fail"))
    out = list(p.run_rows(rows))
    # task 1 has failed samples that pass the filter, but one of its samples succeeded
    assert {r["task_id"] for r in out} == {rows[8]["task_id"]}
    assert len(out) == 4


def test_dedup_drops_repeated_conversations_of_the_same_task():
    t = task(0)
    a, b = trajectory(t, 0), trajectory(t, 1)  # same messages, different samples
    c = trajectory(t, 2, answer="something else")
    other = trajectory(task(1), 0)
    out = ids(Dedup().select(records([a, b, c, other, a])))
    assert out == [a["id"], c["id"], other["id"]]
