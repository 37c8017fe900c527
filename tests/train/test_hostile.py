"""bc-train against hostile inputs: shell-safe run.sh, malformed SFT rows, unwritable outputs, broken run dirs."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import sft_row, task_row, write_jsonl

BIN = Path(sys.executable).parent


def bc_train(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / "bc-train"), *args], capture_output=True, text=True, timeout=120)


def test_set_values_cannot_inject_shell_code(tasks_file: Path, tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    values = [f"trainer.project_name=a b \"c\" $(touch {marker}) `touch {marker}`",
              f"trainer.experiment_name=it's;touch {marker}",
              "+trainer.note=line1\nline2"]
    proc = bc_train(str(tasks_file), "-o", str(tmp_path / "run"), *[f"--set={v}" for v in values])
    assert proc.returncode == 0, proc.stderr
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "python3").write_text('#!/bin/sh\nfor a in "$@"; do printf "%s\\0" "$a"; done\n')
    (fake / "python3").chmod(0o755)
    run = subprocess.run(["bash", str(tmp_path / "run" / "run.sh")], capture_output=True, timeout=30,
                         env={**os.environ, "PATH": f"{fake}:{os.environ['PATH']}"})
    assert run.returncode == 0, run.stderr
    args = run.stdout.decode().split("\0")[:-1]
    assert args[2] == f"--config-path={tmp_path / 'run'}" and args[-len(values):] == values
    assert f"data.train_files='{tmp_path / 'run'}/train.parquet'" in args[4:-len(values)]  # anchored paths first
    assert not marker.exists()


def test_run_sh_quotes_overrides_by_position_not_content(tmp_path: Path) -> None:
    from bc_train.verl_config import TrainOptions, run_sh

    marker = tmp_path / "pwned"
    overrides = [f"--config-path=$(touch {marker})", f'--config-path="$(touch {marker})"']
    for mode in ("rl", "sft"):
        script = tmp_path / f"{mode}.sh"
        script.write_text(run_sh(mode, TrainOptions(overrides=overrides)).replace("python3 ", "echo ", 1)
                          .replace("torchrun ", "echo ", 1))
        proc = subprocess.run(["bash", str(script)], capture_output=True, text=True, timeout=30)
        assert proc.returncode == 0 and f"touch {marker}" in proc.stdout, proc.stderr
    assert not marker.exists()


@pytest.mark.parametrize("value", ["--config-path=$(touch /tmp/x)", "-cfg=job", "noequals"])
def test_set_must_be_a_hydra_override(tasks_file: Path, tmp_path: Path, value: str) -> None:
    proc = bc_train(str(tasks_file), "-o", str(tmp_path / "run"), f"--set={value}")
    assert proc.returncode == 2 and "Hydra override" in proc.stderr
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("change, reason", [
    ({"score": "x"}, "score: expected a number"),
    ({"score": [1]}, "score: expected a number"),
    ({"tools": "calculate"}, "tools: expected a list"),
    ({"messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "a", "tool_calls": "zz"}]},
     "messages[1].tool_calls"),
    ({"messages": [{"role": "user", "content": "q"},
                   {"role": "assistant", "content": "a", "tool_calls": [{"function": "calculate"}]}]},
     "'function' must be an object"),
])
def test_malformed_sft_rows_name_file_and_line(tmp_path: Path, change: dict, reason: str) -> None:
    rows = [sft_row(0), {**sft_row(1), **change}]
    proc = bc_train(str(write_jsonl(tmp_path / "sft.jsonl", rows)), "-o", str(tmp_path / "run"))
    assert proc.returncode == 2, proc.stderr
    assert "sft.jsonl:2:" in proc.stderr and reason in proc.stderr and "Traceback" not in proc.stderr


def test_sft_rows_with_null_content_and_tool_messages(tmp_path: Path) -> None:
    row = sft_row(0)
    row["messages"][1]["content"] = None
    row["messages"][1]["tool_calls"][0]["function"]["arguments"] = {"expression": "1 + 1"}
    proc = bc_train(str(write_jsonl(tmp_path / "sft.jsonl", [row])), "-o", str(tmp_path / "run"))
    assert proc.returncode == 0, proc.stderr


def test_unwritable_output_dir_is_a_usage_error(tasks_file: Path, tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    proc = bc_train(str(tasks_file), "-o", str(tmp_path / "file" / "run"))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and "file" in proc.stderr


def test_rl_rows_of_several_bootcamps_and_a_val_file(tmp_path: Path) -> None:
    noop = subprocess.run([str(BIN / "bc-gen"), "noop", "-n", "3"], capture_output=True, check=True, text=True)
    rows = [task_row(i) for i in range(4)] + [json.loads(line) for line in noop.stdout.splitlines()]
    tasks = write_jsonl(tmp_path / "tasks.jsonl", rows)
    val = write_jsonl(tmp_path / "val.jsonl", [task_row(9, split="test")])
    out = tmp_path / "run"
    out.mkdir()
    (out / "val.parquet").write_text("stale")
    (out / "bc_train.json").write_text("{}")  # a previous run: --force replaces it whole
    proc = bc_train(str(tasks), "--val", str(val), "-o", str(out), "--force")
    assert proc.returncode == 0, proc.stderr
    manifest = json.loads((out / "bc_train.json").read_text())
    assert manifest["counts"] == {"train": 7, "val": 1}
    assert manifest["data_sources"] == ["bootcamp/arithmetic", "bootcamp/noop"]
    assert (out / "val.parquet").read_bytes()[:4] == b"PAR1"


@pytest.mark.slow
def test_check_names_missing_files_and_copied_dirs(tasks_file: Path, tmp_path: Path) -> None:
    pytest.importorskip("verl")
    from bc_train.check import check_run_dir
    from bc_train.emit import emit_run
    from bc_train.verl_config import TrainOptions

    run = tmp_path / "run"
    emit_run([str(tasks_file)], run, TrainOptions())
    copy = tmp_path / "copy"
    shutil.copytree(run, copy)
    lines: list[str] = []
    assert check_run_dir(copy, log=lines.append)
    assert not any("outside" in line for line in lines)  # the copy's paths are its own (issue 22 item 21)
    (run / "train.parquet").unlink()
    lines.clear()
    assert not check_run_dir(run, log=lines.append)
    assert lines[-1] == f"FAIL files: data.train_files = {run.resolve() / 'train.parquet'}: no such file"
    (copy / "run.sh").unlink()
    lines.clear()
    assert not check_run_dir(copy, log=lines.append) and lines[-1].startswith("FAIL files:")
    assert "run.sh" in lines[-1]
