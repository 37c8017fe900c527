"""What a newcomer sees on the usual first mistakes (issue 22, "A newcomer's friction"): a file of the other record
kind given to a tool says what the file is and what the tool reads; `bc-filter --split test` on bc-gen's default
data says why it kept nothing."""
from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent
TASK_FILE = "this is a task file; {prog} reads trajectories (bc-eval's output)"
TRAJECTORY_FILE = "this is a trajectory file; {prog} reads task rows (bc-gen's output)"


def run(prog: str, *args: str | Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "OPENAI_BASE_URL")}
    return subprocess.run([str(BIN / prog), *map(str, args)], capture_output=True, text=True, env=env, timeout=120)


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("kinds")
    tasks, runs = root / "tasks.jsonl", root / "runs.jsonl"
    assert run("bc-gen", "arithmetic", "-n", "4", "-o", tasks).returncode == 0
    assert run("bc-eval", tasks, "--model", "builtin:reference", "-q", "-o", runs).returncode == 0
    return {"tasks": tasks, "runs": runs, "root": root}


@pytest.mark.parametrize("prog, args", [
    ("bc-report", ["--format", "md"]),
    ("bc-filter", ["--to", "sft"]),  # reshaping needs trajectories
])
def test_a_task_file_where_trajectories_are_read_says_so(prog, args, files):
    if prog == "bc-report" and importlib.util.find_spec("numpy") is None:
        pytest.skip("bc-report needs the report extra")
    proc = run(prog, files["tasks"], *args)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith(f"{prog}: error: {files['tasks']}:1: {TASK_FILE.format(prog=prog)}"), proc.stderr


@pytest.mark.parametrize("prog, args", [
    ("bc-eval", ["--model", "builtin:reference"]),
    ("bc-toolserve", ["mcp", "--task", "x", "--tasks"]),
])
def test_a_trajectory_file_where_tasks_are_read_says_so(prog, args, files):
    if prog == "bc-toolserve":
        proc = run(prog, *args, files["runs"])
        if "mcp" in proc.stderr and "extra" in proc.stderr:
            pytest.skip("bc-toolserve mcp needs the mcp extra")
    else:
        proc = run(prog, files["runs"], *args)
    assert proc.returncode == 2, proc.stderr
    assert f"{files['runs']}:1: {TRAJECTORY_FILE.format(prog=prog)}" in proc.stderr, proc.stderr
    assert "bc-filter --to task" in proc.stderr  # and the way back


def test_the_right_kinds_still_pass(files):
    assert run("bc-eval", files["tasks"], "--model", "builtin:reference", "-q", "-o", "/dev/null").returncode == 0
    assert run("bc-filter", files["runs"], "--to", "sft", "-o", "/dev/null").returncode == 0
    assert run("bc-filter", files["tasks"], "-o", "/dev/null").returncode == 0  # copying task rows is fine


def test_a_row_missing_a_field_still_names_the_field(files):
    bad = files["root"] / "bad.jsonl"
    bad.write_text('{"data_source": "bootcamp/arithmetic"}\n')
    proc = run("bc-eval", bad, "--model", "builtin:reference")
    assert proc.returncode == 2 and f"{bad}:1: missing field 'prompt'" in proc.stderr, proc.stderr


def test_bc_filter_says_why_the_split_example_keeps_nothing(files):
    proc = run("bc-filter", "--split", "test", files["runs"])
    assert proc.returncode == 0 and proc.stdout == ""
    assert ("bc-filter: kept 0 of 4 rows: 'split test' dropped 4 (the input's splits: train (4); bc-gen writes "
            "split 'train' unless given --split)") in proc.stderr, proc.stderr
    kept = run("bc-filter", "--split", "train", files["runs"])
    assert kept.stdout.count("\n") == 4 and "kept 0" not in kept.stderr


def test_bc_filter_names_the_stage_that_kept_nothing(files):
    proc = run("bc-filter", "--has-tool-error", files["runs"])
    assert proc.returncode == 0 and "bc-filter: kept 0 of 4 rows: 'has-tool-error' dropped 4" in proc.stderr, \
        proc.stderr
