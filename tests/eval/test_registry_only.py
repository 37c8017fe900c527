"""The seed's registry-only evaluation (`--bootcamp-registry` with no dataset) ran 0 tasks and exited 0: it is
refused, saying how to make the tasks; tasks piped in are scored by the registry's verifier (issue 22)."""
from __future__ import annotations

import subprocess

import orjson

from tests.seed_configs import seed_configs

from .conftest import BIN, bc_eval_env


def test_a_registry_without_tasks_is_refused_and_with_tasks_it_scores(tmp_path, scripted):
    _, url = scripted({})
    cfg = seed_configs("arithmetic")
    registry = tmp_path / "bootcamp_registry.jsonl"
    registry.write_bytes(orjson.dumps({
        "data_source": "bootcamp/myarith", "instruction_config_path": str(cfg / "instruction_config.yaml"),
        "yaml_tool_path": str(cfg / "tool_config.yaml"), "yaml_interaction_path": str(cfg / "interaction_config.yaml"),
        "reward_calculator_class": "bootcamps.arithmetic.reward.ArithmeticRewardCalculator"}) + b"\n")
    out = tmp_path / "out.jsonl"
    cmd = [str(BIN / "bc-eval"), "--bootcamp-registry", str(registry), "--model", "m", "--base-url", url,
           "-o", str(out)]
    proc = subprocess.run(cmd, input=b"", capture_output=True, env=bc_eval_env(), timeout=120)
    assert proc.returncode == 2 and b"no tasks" in proc.stderr and b"bc-gen --registry" in proc.stderr, proc.stderr
    assert not out.exists()  # refused before anything is written
    gen = subprocess.run([str(BIN / "bc-gen"), "--registry", str(registry), "-o", str(tmp_path / "data"),
                          "--split-samples", "train:0,test:3", "--concat"], capture_output=True, timeout=300)
    assert gen.returncode == 0, gen.stderr
    tasks = (tmp_path / "data" / "test.jsonl").read_bytes()
    proc = subprocess.run([*cmd, "--dry-run"], input=tasks, capture_output=True, env=bc_eval_env(), timeout=120)
    assert proc.returncode == 0 and b"tasks: 3 rows parse" in proc.stderr, proc.stderr  # piped tasks: checked
    assert b"bootcamp/myarith: verifier ArithmeticRewardCalculator" in proc.stderr
