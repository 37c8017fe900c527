"""The bc-filter command as users run it: a real subprocess, real files, stdin/stdout."""
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from bc_common.records import check_task, check_trajectory

from .rows import eval_run, read_jsonl, task, trajectory, write_jsonl

BC_FILTER = str(Path(sys.executable).with_name("bc-filter"))


def bc_filter(*args, stdin: bytes = b"", check: bool = True):
    proc = subprocess.run([BC_FILTER, *map(str, args)], input=stdin, capture_output=True, timeout=60)
    if check and proc.returncode != 0:
        raise AssertionError(f"exit {proc.returncode}: {proc.stderr.decode()}")
    return proc


def jsonl(rows) -> bytes:
    return b"".join(orjson.dumps(r) + b"\n" for r in rows)


@pytest.fixture(scope="module")
def run_rows():
    return eval_run(n_tasks=30, samples=4)  # 10 all-solved, 10 mixed, 10 unsolved tasks


def test_one_sft_row_per_solved_task(run_rows):
    out = read_jsonl(bc_filter("--min-score", "0.9", "--best-per-task", "--to", "sft", stdin=jsonl(run_rows)).stdout)
    solved = {r["task_id"] for r in run_rows if r["score"] >= 0.9}
    assert len(out) == len(solved) == 20
    assert {r["id"].split("#")[0] for r in out} == solved
    for row in out:
        assert list(row) == ["id", "data_source", "messages", "tools", "score"]
        assert row["score"] == 1.0 and row["messages"][-1]["role"] == "assistant"
        assert isinstance(row["messages"][1]["tool_calls"][0]["function"]["arguments"], str)


def test_failures_as_task_rows_for_a_rerun(run_rows):
    out = read_jsonl(bc_filter("--fail-only-tasks", "--to", "task", stdin=jsonl(run_rows)).stdout)
    unsolved = [t for t in dict.fromkeys(r["task_id"] for r in run_rows)
                if not any(s["success"] for s in run_rows if s["task_id"] == t)]
    assert [t["id"] for t in out] == unsolved and len(out) == 10
    originals = {r["task_id"]: r["input"] for r in run_rows}
    for row in out:
        check_task(row)
        assert row == originals[row["id"]]
    # every failed sample, one task row each
    out = read_jsonl(bc_filter("--max-score", "0.5", "--to", "task", stdin=jsonl(run_rows)).stdout)
    assert len(out) == 20


def test_pass_only_tasks(run_rows):
    out = read_jsonl(bc_filter("--pass-only-tasks", stdin=jsonl(run_rows)).stdout)
    assert len(out) == 40 and all(r["success"] for r in out)


def test_filters_combine_and_files_and_output(tmp_path):
    rows = [trajectory(task(0), 0), trajectory(task(1, split="test"), 0, status="max_turns", score=0.0,
                                                     tool_error=True, assistant_turns=4),
            trajectory(task(2, split="test", generator="hard"), 0, score=0.5)]
    a = write_jsonl(tmp_path / "a.jsonl", rows[:2])
    b = write_jsonl(tmp_path / "b.jsonl", rows[2:])

    def run(*flags):
        out = tmp_path / "out.jsonl"
        bc_filter(a, b, "-o", out, *flags)
        return [r["id"] for r in read_jsonl(out)]

    assert run() == [r["id"] for r in rows]
    assert run("--split", "test") == [rows[1]["id"], rows[2]["id"]]
    assert run("--split", "test", "--status", "completed,length") == [rows[2]["id"]]
    assert run("--generator", "hard") == [rows[2]["id"]]
    assert run("--has-tool-error") == [rows[1]["id"]]
    assert run("--min-turns", "3") == [rows[1]["id"]]
    assert run("--max-turns", "2", "--success") == [rows[0]["id"]]
    assert run("--data-source", "bootcamp/arith*", "--bootcamp", "arithmetic", "--min-score", "0.4",
               "--max-score", "0.6") == [rows[2]["id"]]
    assert run("--where", "input.extra_info.split=test", "--where", "score<0.1") == [rows[1]["id"]]
    assert run("--where", "messages[-1].role!=assistant") == []


def test_expand_dedup_and_shapes(tmp_path):
    t = task(0)
    rows = [trajectory(t, 0, assistant_turns=3), trajectory(t, 1, assistant_turns=3)]  # identical chats
    data = jsonl(rows)
    expanded = read_jsonl(bc_filter("--expand-prefixes", stdin=data).stdout)
    assert len(expanded) == 6
    deduped = read_jsonl(bc_filter("--expand-prefixes", "--dedup", "--to", "training", stdin=data).stdout)
    assert len(deduped) == 3
    assert [len(r["messages"]) for r in deduped] == [2, 4, 6]
    assert list(deduped[0]) == ["id", "data_source", "prompt", "messages", "tools"]
    msgs = read_jsonl(bc_filter("--to", "messages", stdin=data).stdout)
    assert list(msgs[0]) == ["id", "messages", "score", "success"]


def test_stats_go_to_stderr(run_rows):
    proc = bc_filter("--min-score", "0.9", "--stats", stdin=jsonl(run_rows))
    assert len(read_jsonl(proc.stdout)) == 50
    err = proc.stderr.decode()
    assert "rows in: 120" in err and "rows out: 50" in err
    assert "dropped by min-score 0.9: 70" in err
    assert "bootcamp/arithmetic: 120 -> 50" in err
    assert "1.0:" in err


def test_passthrough_rows_are_still_trajectories(run_rows):
    for row in read_jsonl(bc_filter("--success", stdin=jsonl(run_rows)).stdout):
        check_trajectory(row)


def test_bad_input_names_the_line_and_exits_2(tmp_path):
    rows = eval_run(n_tasks=1)
    src = tmp_path / "eval.jsonl"
    src.write_bytes(jsonl(rows[:2]) + b'{"id": "x", "task_id": "t"}\n' + jsonl(rows[2:]))
    proc = bc_filter(src, check=False)
    assert proc.returncode == 2
    assert f"{src}:3: missing field" in proc.stderr.decode()
    proc = bc_filter(src, "--skip-invalid")
    assert len(read_jsonl(proc.stdout)) == 4
    assert "skipped 1 invalid" in proc.stderr.decode()
    proc = bc_filter("--to", "task", stdin=b"[1, 2]\n", check=False)
    assert proc.returncode == 2 and "<stdin>:1: expected a trajectory object" in proc.stderr.decode()


def test_usage_errors_exit_2():
    for args in (["--where", "score>=high"], ["--status", "done"], ["--to", "csv"],
                 ["--pass-only-tasks", "--fail-only-tasks"], ["/no/such/file.jsonl"]):
        proc = bc_filter(*args, check=False)
        assert proc.returncode == 2, (args, proc.stderr)
        assert proc.stdout == b""


def test_help_shows_examples_and_exit_codes():
    text = bc_filter("--help").stdout.decode()
    assert "--best-per-task --to sft" in text and "Exit codes" in text


def test_stats_rate_the_models_of_match_rows():
    """bc-filter --stats on matches (bc-eval --opponent-model): ratings in the known order, the matrix, the side
    check; the rows themselves pass through unchanged."""
    from .rows import round_robin

    rows = round_robin({"strong": 1300.0, "fair": 1000.0, "weak": 700.0}, 20, seed=4)
    proc = bc_filter("--stats", stdin=jsonl(rows))
    assert proc.stdout == jsonl(rows)
    err = proc.stderr.decode()
    assert "ratings from 120 matches (0 unfinished" in err
    ranked = [line.split(":")[0].strip() for line in err.split("Elo scale")[1].splitlines()[1:4]]
    assert ranked == ["strong", "fair", "weak"]
    assert "strong vs weak: " in err and "side bias: first seat " in err
    plain = bc_filter("--stats", stdin=jsonl(eval_run(n_tasks=2, samples=1))).stderr.decode()
    assert "ratings" not in plain
