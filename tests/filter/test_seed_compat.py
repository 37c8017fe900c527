"""bc-filter for a user of the seed: its flag spellings, its evaluator's rows (converted on read), and a parquet
converter both ways (issue 9)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson
import pyarrow.parquet as pq
import pytest

from bc_common.jsonl import dumps
from bc_common.parquet_io import read_parquet, write_json_columns
from bc_common.records import check_trajectory

from .rows import eval_run, task

BC_FILTER = str(Path(sys.executable).with_name("bc-filter"))
BC_GEN = str(Path(sys.executable).with_name("bc-gen"))


def bc_filter(*args, stdin: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run([BC_FILTER, *map(str, args)], input=stdin, capture_output=True, timeout=60)


def lines(data: bytes) -> list[dict]:
    return [orjson.loads(line) for line in data.splitlines()]


def seed_row(index: int, *, score: float | None = 1.0, error: str | None = None, max_turns: bool = False) -> dict:
    """A row as the seed's evaluator (`BaseEvaluator._evaluate_one`) writes it."""
    t = task(index)
    t.pop("id")  # the seed's tasks carry no id
    messages = [*t["prompt"], {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c0", "type": "function", "function": {"name": "calculate", "arguments": '{"expression": "1+1"}'}}]},
        {"role": "tool", "content": "2", "tool_call_id": "c0"},
        {"role": "assistant", "content": f'```json {{"result": {index + 1}}}```'}]
    config = {"model": "gpt-x", "api_extra_params": {}, "api_extra_headers": {"Authorization": "Bearer sk-secret"},
              "max_assistant_turns": 5, "max_user_turns": 20}
    if error:
        return {"input": t, "tools": [], "messages": messages[:1], "output": None, "score": 0, "error": error,
                "reached_max_turns": False, "turn_record": {}, "success": False, "prompt_tokens": None,
                "global_seq_tokens": 0, "token_usage": {"total_tokens": 0}, "evaluation_config": config}
    return {"input": t, "tools": [], "messages": messages, "extracted_output": index + 1,
            "ground_truth": t["reward_model"]["ground_truth"], "score": score, "reached_max_turns": max_turns,
            "turn_record": {"interaction_turn_0": {"assistant_turns": 2, "tool_calls_executed": 1}},
            "success": True, "full_context": "...", "response_context": "...", "prompt_tokens": 10,
            "global_seq_tokens": 30, "token_usage": {"prompt_tokens": 10, "completion_tokens": 20,
                                                     "total_tokens": 30}, "evaluation_config": config}


@pytest.fixture()
def seed_file(tmp_path: Path) -> Path:
    rows = [seed_row(0), seed_row(0, score=0.0), seed_row(1, max_turns=True), seed_row(2, error="APIError: 500"),
            seed_row(3, score=None), seed_row(4)]
    path = tmp_path / "eval_results.jsonl"
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in rows))
    return path


@pytest.mark.parametrize("flags", [[], ["--min-score", "0"], ["--to", "messages"], ["--best-per-task"]])
def test_the_seeds_evaluator_rows_are_converted_on_read(seed_file, flags):
    proc = bc_filter(seed_file, *flags)
    assert proc.returncode == 0, proc.stderr
    out = lines(proc.stdout)
    if flags and flags[0] == "--to":
        assert [r["success"] for r in out] == [True, False, False, False, False, True]
        return
    for row in out:
        check_trajectory(row)
        assert b"sk-secret" not in proc.stdout  # the seed recorded the auth header; it is redacted
    by_id = {r["id"]: r for r in out}
    first = out[0]
    assert first["task_id"].startswith("task-") and first["id"] == first["task_id"] + "#0"  # the seed had no ids
    assert first["model"] == "gpt-x" and first["status"] == "completed" and first["success"] is True
    assert first["usage"]["total_tokens"] == 30 and first["turn_record"]  # the seed's own fields stay
    if not flags:
        assert [r["sample"] for r in out][:2] == [0, 1]  # the second row of the same task is sample 1
        assert [r["status"] for r in out] == ["completed", "completed", "max_turns", "error", "completed",
                                              "completed"]
        assert out[3]["error"] == {"type": "seed_error", "message": "APIError: 500"}
        assert out[4]["score"] == 0.0  # the seed ran without a verifier: no score is not a pass
    assert len(by_id) == len(out)


def test_the_seeds_flag_spellings(seed_file):
    ours = bc_filter(seed_file, "--success", "--expand-prefixes", "--to", "training")
    seeds = bc_filter(seed_file, "--filter-success", "--expand-messages-prefixes", "--extract-training")
    assert ours.returncode == seeds.returncode == 0 and ours.stdout == seeds.stdout
    assert [len(r["messages"]) for r in lines(seeds.stdout)] == [2, 4, 2, 4]  # two solved rows, two turns each
    assert bc_filter(seed_file, "--extract-messages").stdout == bc_filter(seed_file, "--to", "messages").stdout
    proc = bc_filter(seed_file, "--extract-training", "--to", "sft")
    assert proc.returncode == 2 and b"choose one output shape" in proc.stderr
    assert bc_filter(seed_file, "--extract-training", "--extract-messages").returncode == 2


def test_task_rows_convert_to_verl_parquet_and_back_byte_for_byte(tmp_path):
    tasks = subprocess.run([BC_GEN, "arithmetic", "-n", "20"], capture_output=True, check=True).stdout
    tasks += subprocess.run([BC_GEN, "tictactoe", "-n", "10"], capture_output=True, check=True).stdout
    (tmp_path / "tasks.jsonl").write_bytes(tasks)
    proc = bc_filter(tmp_path / "tasks.jsonl", "-o", tmp_path / "tasks.parquet")
    assert proc.returncode == 0, proc.stderr
    schema = pq.read_schema(tmp_path / "tasks.parquet")
    assert str(schema.field("prompt").type) == "list<element: struct<role: string, content: string>>"
    assert schema.field("extra_info").type.num_fields > 5  # a struct, not JSON text
    proc = bc_filter(tmp_path / "tasks.parquet", "-o", tmp_path / "back.jsonl")
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "back.jsonl").read_bytes() == tasks
    assert bc_filter(tmp_path / "tasks.parquet", "--format", "jsonl").stdout == tasks


def test_old_parquet_files_convert_to_verl_layout(tmp_path):
    tasks = [orjson.loads(line) for line in subprocess.run(
        [BC_GEN, "arithmetic", "-n", "8"], capture_output=True, check=True).stdout.splitlines()]
    write_json_columns(tasks, tmp_path / "old.parquet")  # how task parquet was written before
    assert str(pq.read_schema(tmp_path / "old.parquet").field("prompt").type) == "string"
    proc = bc_filter(tmp_path / "old.parquet", "-o", tmp_path / "new.parquet")
    assert proc.returncode == 0, proc.stderr
    assert str(pq.read_schema(tmp_path / "new.parquet").field("prompt").type).startswith("list<")
    assert read_parquet(tmp_path / "new.parquet") == tasks


def test_trajectories_convert_to_parquet_and_back(tmp_path):
    rows = eval_run(n_tasks=3, samples=2)
    (tmp_path / "t.jsonl").write_bytes(b"".join(dumps(r) for r in rows))
    assert bc_filter(tmp_path / "t.jsonl", "--min-score", "0.5", "-o", tmp_path / "t.parquet").returncode == 0
    kept = [r for r in rows if r["score"] >= 0.5]
    assert read_parquet(tmp_path / "t.parquet") == kept
    back = bc_filter(tmp_path / "t.parquet")
    assert back.returncode == 0 and lines(back.stdout) == kept
    proc = bc_filter(tmp_path / "t.jsonl", "--format", "parquet")
    assert proc.returncode == 2 and b"needs -o FILE" in proc.stderr


def test_without_stages_bad_rows_still_name_the_line(tmp_path):
    (tmp_path / "x.jsonl").write_bytes(b'{"id": "a", "task_id": "t"}\n')
    proc = bc_filter(tmp_path / "x.jsonl", "-o", tmp_path / "x.parquet")
    assert proc.returncode == 2 and b"x.jsonl:1: missing field" in proc.stderr
    assert not (tmp_path / "x.parquet").exists()


def test_the_seeds_positional_output_form(seed_file, tmp_path):
    out = tmp_path / "out.jsonl"
    proc = bc_filter(seed_file, out, "--filter-success")  # OUT does not exist: it is the output, as in the seed
    assert proc.returncode == 0 and proc.stdout == b"", proc.stderr
    assert out.read_bytes() == bc_filter(seed_file, "--filter-success").stdout and out.read_bytes()
    processed = tmp_path / "eval_results_processed.jsonl"
    processed.write_bytes(b"stale\n")  # the seed's default output name: rewritten, never read
    assert bc_filter(seed_file, processed, "--filter-success").returncode == 0
    assert processed.read_bytes() == out.read_bytes()
    before = out.read_bytes()
    proc = bc_filter(seed_file, out)  # an existing file: input or output? refused, with the -o hint
    assert proc.returncode == 2 and f"-o {out}".encode() in proc.stderr and b"-o -" in proc.stderr
    assert out.read_bytes() == before
    both = bc_filter(seed_file, out, "-o", "-")  # two inputs, said explicitly
    assert both.returncode == 0 and len(lines(both.stdout)) == 6 + len(lines(before))
