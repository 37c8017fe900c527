"""sql_query: one task's query answers no other task of its template (different parameters), and prompts differ
from database to database. Checked in process on the generator's own in-memory databases (no sandbox)."""
from __future__ import annotations

import pytest

from bc_common.sql_runner import comparable
from bc_common.tasks import TaskSet
from bootcamps.sql_query.database import database_script, memory_database
from bootcamps.sql_query.generator import reference_query
from bootcamps.sql_query.questions import BY_KEY


@pytest.mark.parametrize("group", ["easy", "medium", "hard"])
def test_a_query_answers_no_other_task_with_other_parameters(group):
    rows = TaskSet("sql_query", seed=4, groups=[group])
    tasks = [rows[i] for i in range(12)]
    identities = [t["reward_model"]["ground_truth"] for t in tasks]
    databases = [memory_database(database_script(i["seed"], i["size"])) for i in identities]
    same_template = 0
    for a in identities:
        for b, con in zip(identities, databases, strict=True):
            if a is b or a["question"] != b["question"] or a["params"] == b["params"]:
                continue
            same_template += 1
            want = comparable(con.execute(reference_query(b)).fetchall(), b["ordered"])
            assert comparable(con.execute(reference_query(a)).fetchall(), b["ordered"]) != want, (a, b)
    assert same_template >= 10
    assert len({t["prompt"][0]["content"] for t in tasks}) == len(tasks)


def test_every_drawn_answer_is_unique_in_its_template_space():
    identity = TaskSet("sql_query", seed=2, groups=["medium"])[0]["reward_model"]["ground_truth"]
    question = BY_KEY[identity["question"]]
    con = memory_database(database_script(identity["seed"], identity["size"]))
    want = comparable(con.execute(reference_query(identity)).fetchall(), question.ordered)
    same = [p for p in question.space()
            if comparable(con.execute(question.sql.format(**p)).fetchall(), question.ordered) == want]
    assert same == [identity["params"]]


HOSTILE = {
    "attach": "ATTACH DATABASE '/workspace/x.db' AS x",
    "pragma": "PRAGMA writable_schema = 1",
    "delete": "DELETE FROM orders",
    "create": "CREATE TABLE t AS SELECT * FROM orders",
    "extension": "SELECT load_extension('/usr/lib/x86_64-linux-gnu/libc.so.6')",
    "endless": "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT max(n) FROM r",
    "too_many_rows": "SELECT a.id FROM orders a, orders b, orders c",
}


@pytest.mark.parametrize("query", sorted(HOSTILE))
def test_hostile_queries_score_zero(query):
    from bc_common.sandbox import SandboxUnavailable, sandbox_for
    from bootcamps.sql_query.reward import SqlQueryRewardCalculator as Reward

    try:
        sandbox_for("bubblewrap")
    except SandboxUnavailable as exc:
        pytest.skip(f"bubblewrap cannot run here: {exc}")
    identity = TaskSet("sql_query", seed=6, groups=["easy"])[0]["reward_model"]["ground_truth"]
    assert Reward.verify_score(f"```sql\n{HOSTILE[query]}\n```", identity) == 0.0
    assert Reward.verify_score(f"```sql\n{reference_query(identity)}\n```", identity) == 1.0
