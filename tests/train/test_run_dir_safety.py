"""A run directory is bc-train's only as far as its manifest says: `--force` replaces the files it wrote and
nothing else (checkpoints, logs, a user's notes stay), one bc-train writes a directory at a time, and a run
directory works wherever it is moved (issue 22, items 2, 3 and 21)."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import orjson
import pytest

from .conftest import sft_row, write_jsonl

BIN = Path(sys.executable).parent


def bc_train(*args: object, stdin: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / "bc-train"), *map(str, args)], input=stdin, capture_output=True, timeout=300)


def test_force_replaces_only_what_the_previous_run_wrote(tasks_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert bc_train(tasks_file, "-o", out).returncode == 0
    manifest = orjson.loads((out / "bc_train.json").read_bytes())
    assert sorted(manifest["files"]) == sorted(p.name for p in out.iterdir())  # it lists all it wrote
    (out / "checkpoints" / "global_step_20").mkdir(parents=True)  # what verl and the user add
    (out / "checkpoints" / "global_step_20" / "model.pt").write_bytes(b"weights")
    (out / "checkpoints" / "latest_checkpointed_iteration.txt").write_text("20")
    (out / "notes.txt").write_text("lr 1e-6 diverged")
    (out / "outputs").mkdir()
    (out / "outputs" / "main_ppo.log").write_text("log")
    sft = write_jsonl(tmp_path / "sft.jsonl", [sft_row(i) for i in range(4)])
    proc = bc_train(sft, "-o", out, "--force")  # an SFT run over the RL one
    assert proc.returncode == 0, proc.stderr
    assert (out / "checkpoints" / "global_step_20" / "model.pt").read_bytes() == b"weights"
    assert (out / "checkpoints" / "latest_checkpointed_iteration.txt").read_text() == "20"
    assert (out / "notes.txt").read_text() == "lr 1e-6 diverged" and (out / "outputs" / "main_ppo.log").exists()
    assert not (out / "agent_loops.yaml").exists() and not (out / "val.parquet").exists()  # the RL run's own
    assert orjson.loads((out / "bc_train.json").read_bytes())["mode"] == "sft"


def test_force_refuses_a_file_it_would_write_but_did_not(tasks_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    sft = write_jsonl(tmp_path / "sft.jsonl", [sft_row(i) for i in range(4)])
    assert bc_train(sft, "-o", out).returncode == 0  # few rows: no val.parquet
    (out / "val.parquet").write_bytes(b"the user's own")
    proc = bc_train(tasks_file, "-o", out, "--force")
    assert proc.returncode == 2 and b"val.parquet: not written by bc-train" in proc.stderr, proc.stderr
    assert (out / "val.parquet").read_bytes() == b"the user's own"
    assert orjson.loads((out / "bc_train.json").read_bytes())["mode"] == "sft"  # nothing touched


def test_a_second_bc_train_on_the_same_folder_is_refused(tasks_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    first = subprocess.Popen([str(BIN / "bc-train"), "-o", str(out)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not (tmp_path / ".run.lock").exists():
        assert first.poll() is None and time.monotonic() < deadline
        time.sleep(0.02)
    second = bc_train(tasks_file, "-o", out, "--force")
    assert second.returncode == 2 and f"bc-train (pid {first.pid}".encode() in second.stderr, second.stderr
    first.send_signal(signal.SIGKILL)  # the kernel drops the lock of a killed holder
    first.communicate()
    assert bc_train(tasks_file, "-o", out).returncode == 0 and not (tmp_path / ".run.lock").exists()


def test_run_sh_anchors_every_path_at_its_own_folder_after_a_move(tasks_file: Path, tmp_path: Path) -> None:
    assert bc_train(tasks_file, "-o", tmp_path / "laptop" / "run").returncode == 0
    moved = tmp_path / "gpu node" / "runs, old"  # a space and a comma: Hydra must still read one path
    moved.parent.mkdir()
    shutil.move(tmp_path / "laptop" / "run", moved)
    assert str(tmp_path / "laptop") not in "".join(p.read_text() for p in moved.glob("*.yaml"))
    assert str(tmp_path / "laptop") not in (moved / "run.sh").read_text()
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "python3").write_text('#!/bin/sh\nfor a in "$@"; do printf "%s\\0" "$a"; done\n')
    (fake / "python3").chmod(0o755)
    proc = subprocess.run(["bash", str(moved / "run.sh")], capture_output=True, timeout=30,
                          env={**os.environ, "PATH": f"{fake}:{os.environ['PATH']}"})
    args = proc.stdout.decode().split("\0")[:-1]
    anchored = dict(a.split("=", 1) for a in args if "='" in a)
    assert set(anchored) == {"data.train_files", "data.val_files", "trainer.default_local_dir",
                             "actor_rollout_ref.rollout.multi_turn.tool_config_path",
                             "actor_rollout_ref.rollout.agent.agent_loop_config_path"}
    assert all(value.startswith(f"'{moved}/") for value in anchored.values()), anchored


@pytest.mark.slow
def test_a_moved_run_dir_passes_check_and_composes_inside_it(tasks_file: Path, tmp_path: Path) -> None:
    pytest.importorskip("verl")
    from omegaconf import OmegaConf

    from bc_train.check import check_run_dir
    from bc_train.check import compose as _compose
    from bc_train.verl_config import anchor_overrides

    for mode, rows in (("rl", tasks_file), ("sft", write_jsonl(tmp_path / "sft.jsonl",
                                                               [sft_row(i) for i in range(30)]))):
        assert bc_train(rows, "-o", tmp_path / mode).returncode == 0
        moved = tmp_path / "elsewhere" / f"{mode}, moved"
        moved.parent.mkdir(exist_ok=True)
        shutil.move(tmp_path / mode, moved)
        lines: list[str] = []
        assert check_run_dir(moved, log=lines.append), "\n".join(lines)
        assert not any("outside" in line for line in lines), lines
        raw = OmegaConf.to_container(OmegaConf.load(moved / "config.yaml"))
        cfg = _compose(moved, anchor_overrides(raw, mode, str(moved.resolve())))
        paths = [cfg.data.train_files, cfg.data.val_files, cfg.trainer.default_local_dir]
        if mode == "rl":
            paths += [cfg.actor_rollout_ref.rollout.multi_turn.tool_config_path,
                      cfg.actor_rollout_ref.rollout.agent.agent_loop_config_path]
        assert all(Path(p).parent == moved.resolve() for p in paths), paths
