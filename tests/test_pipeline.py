"""The whole pipeline as a user types it: bc-gen | bc-eval | bc-filter | bc-train, real processes and pipes."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson
import pytest

BIN = Path(sys.executable).parent


def sh(cmd: str, cwd: Path) -> subprocess.CompletedProcess:
    proc = subprocess.run(["bash", "-o", "pipefail", "-c", cmd], capture_output=True, cwd=cwd,
                          env={"PATH": f"{BIN}:/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stderr.decode()[-3000:]
    return proc


def rows(data: bytes) -> list[dict]:
    return [orjson.loads(line) for line in data.splitlines()]


def test_reference_model_solves_every_task(tmp_path):
    out = sh("bc-gen arithmetic -n 200 | bc-eval --model builtin:reference -c 32", tmp_path)
    traj = rows(out.stdout)
    assert len(traj) == 200 and all(t["score"] == 1.0 and t["status"] == "completed" for t in traj)
    assert b"bootcamp/arithmetic" in out.stderr  # the summary table


def test_noisy_pipeline_to_sft_and_back_to_tasks(tmp_path):
    sh("bc-gen arithmetic -n 100 --seed 3 | bc-eval --model builtin:noisy --samples 4 --param error_rate=0.95 "
       "-o traj.jsonl", tmp_path)
    traj = rows((tmp_path / "traj.jsonl").read_bytes())
    assert len(traj) == 400 and len({(t["task_id"], t["sample"]) for t in traj}) == 400
    assert any(m["role"] == "user" and "incorrect" in m["content"] for t in traj for m in t["messages"][1:])
    solved = {t["task_id"] for t in traj if t["score"] >= 0.9}
    assert 0 < len(solved) < 100  # 0.95^3 per sample, 4 samples: about half the tasks stay unsolved

    sft = rows(sh("bc-filter traj.jsonl --min-score 0.9 --best-per-task --to sft", tmp_path).stdout)
    assert sorted(r["id"].split("#")[0] for r in sft) == sorted(solved)  # one SFT row per solved task
    assert all(r["messages"][-1]["role"] == "assistant" and r["tools"] for r in sft)

    failed = rows(sh("bc-filter traj.jsonl --fail-only-tasks --to task", tmp_path).stdout)
    assert {r["id"] for r in failed} == {t["task_id"] for t in traj} - solved
    (tmp_path / "failed.jsonl").write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in failed))
    rerun = rows(sh("bc-eval failed.jsonl --model builtin:reference", tmp_path).stdout)
    assert len(rerun) == len(failed) and all(t["score"] == 1.0 for t in rerun)

    (tmp_path / "sft.jsonl").write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in sft))
    sh("bc-train sft.jsonl -o run_sft", tmp_path)
    assert (tmp_path / "run_sft" / "run.sh").exists()


def test_train_run_from_generated_tasks_passes_verl_check(tmp_path):
    pytest.importorskip("verl")
    sh("bc-gen arithmetic -n 64 --split train | bc-train -o run_rl --model Qwen/Qwen2.5-0.5B-Instruct", tmp_path)
    sh("bc-train --check run_rl", tmp_path)
