"""bc-train --check: verl itself accepts the run directories we write, and refuses bad keys, naming them.

The acceptance commands run as real CLIs; the refusals call the same library function in-process (each
CLI start pays verl's import time)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("verl")

from bc_train.check import check_run_dir  # noqa: E402
from bc_train.emit import emit_run  # noqa: E402
from bc_train.verl_config import TrainOptions  # noqa: E402

BIN = Path(sys.executable).parent


def sh(cmd: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-o", "pipefail", "-c", cmd], cwd=cwd, capture_output=True, text=True,
                          timeout=300, env={"PATH": f"{BIN}:/usr/bin:/bin", "HOME": str(cwd)})


@pytest.mark.slow
def test_acceptance_rl_from_bc_gen(tmp_path: Path) -> None:
    res = sh("bc-gen arithmetic -n 256 --split train | bc-train -o runs/a --model Qwen/Qwen2.5-0.5B-Instruct"
             " && bc-train --check runs/a", tmp_path)
    assert res.returncode == 0, res.stderr[-3000:]
    for step in ("keys", "compose", "resolve", "validate", "tools", "agent_loops", "dataset", "reward"):
        assert f"ok   {step}" in res.stderr, step
    assert "reference solutions scored 1.0 on 4/4" in res.stderr
    assert res.stdout == ""


def test_acceptance_sft_from_sft_rows(sft_file: Path, tmp_path: Path) -> None:
    res = sh(f"bc-train {sft_file} -o runs/s && bc-train --check runs/s", tmp_path)
    assert res.returncode == 0, res.stderr[-3000:]
    assert "ok   dataset: 6 row(s)" in res.stderr


def check(tasks_file: Path, out: Path, *overrides: str) -> tuple[bool, str]:
    emit_run([str(tasks_file)], out, TrainOptions(overrides=list(overrides)))
    return run_check(out)


def run_check(out: Path) -> tuple[bool, str]:
    lines: list[str] = []
    ok = check_run_dir(out, log=lines.append)
    return ok, "\n".join(lines)


@pytest.mark.parametrize("override, named", [
    ("actor_rollout_ref.rollout.multi_turn.max_asistant_turns=3",
     "unknown key 'actor_rollout_ref.rollout.multi_turn.max_asistant_turns'"),
    ("+actor_rollout_ref.rollout.multi_turn.interaction_config_path=x.yaml",
     "stale key 'actor_rollout_ref.rollout.multi_turn.interaction_config_path'"),
    ("actor_rollout_ref.rollout.multi_turn.interaction_config_path=x.yaml",
     "stale key 'actor_rollout_ref.rollout.multi_turn.interaction_config_path'"),
    ("+custom_reward_function.path=my_reward.py", "stale key 'custom_reward_function.path'"),
    ("trainer.n_gpus_per_nod=2", "did you mean trainer.n_gpus_per_node"),
])
def test_bad_set_key_fails_check_naming_it(tasks_file: Path, tmp_path: Path, override: str, named: str) -> None:
    ok, log = check(tasks_file, tmp_path / "run", override)
    assert not ok
    assert "FAIL keys:" in log and named in log


def test_stale_key_in_edited_config_fails(tasks_file: Path, tmp_path: Path) -> None:
    emit_run([str(tasks_file)], tmp_path / "run", TrainOptions())
    config = tmp_path / "run" / "config.yaml"
    config.write_text(config.read_text().replace("    multi_turn:\n",
                                                 "    multi_turn:\n      interaction_config_path: i.yaml\n"))
    ok, log = run_check(tmp_path / "run")
    assert not ok and "FAIL keys:" in log and "interaction_config_path" in log


def test_invalid_value_fails_validation(tasks_file: Path, tmp_path: Path) -> None:
    ok, log = check(tasks_file, tmp_path / "run", "actor_rollout_ref.actor.loss_agg_mode=nonsense")
    assert not ok and "FAIL validate:" in log and "loss_agg_mode" in log


def test_not_a_run_dir(tmp_path: Path) -> None:
    ok, log = run_check(tmp_path)
    assert not ok and "FAIL files:" in log
