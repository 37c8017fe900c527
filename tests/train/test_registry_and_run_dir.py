"""bc-train takes rows of seed registry bootcamps (`--registry`), refuses a data_source it cannot score before
writing anything, and never mixes a new run into an old one (`-o DIR` empty, or `--force`) (issue 9)."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
import yaml

from bc_common.errors import RegistryError
from bc_common.safe_eval import format_number, safe_eval
from bc_train.reward import compute_score
from tests.seed_configs import seed_configs

BIN = Path(sys.executable).parent
REWARD = "bootcamps.arithmetic.reward.ArithmeticRewardCalculator"


def run(*args: object, stdin: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / str(args[0])), *map(str, args[1:])], input=stdin, capture_output=True,
                          timeout=300)


@pytest.fixture(scope="module")
def registry_rows(tmp_path_factory) -> dict[str, Path]:
    """Tasks of `bootcamp/myarith`: arithmetic's classes under a name no installed bootcamp has."""
    tmp = tmp_path_factory.mktemp("registry")
    cfg = tmp / "cfg"
    shutil.copytree(seed_configs("arithmetic"), cfg)
    reg = tmp / "bootcamp_registry.jsonl"
    reg.write_bytes(orjson.dumps({
        "data_source": "bootcamp/myarith", "instruction_config_path": str(cfg / "instruction_config.yaml"),
        "yaml_tool_path": str(cfg / "tool_config.yaml"), "yaml_interaction_path": str(cfg / "interaction_config.yaml"),
        "reward_calculator_class": REWARD}) + b"\n")
    proc = run("bc-gen", "--registry", reg, "-o", tmp / "data", "--split-samples", "train:12,test:3", "--concat")
    assert proc.returncode == 0, proc.stderr
    return {"registry": reg, "tasks": tmp / "data" / "train.jsonl", "val": tmp / "data" / "test.jsonl"}


def test_an_unscorable_data_source_is_refused_at_bc_train_time(registry_rows, tmp_path):
    out = tmp_path / "run"
    proc = run("bc-train", registry_rows["tasks"], "-o", out)
    err = proc.stderr.decode()
    assert proc.returncode == 2 and "Traceback" not in err
    assert f"{registry_rows['tasks']}:1: data_source 'bootcamp/myarith' cannot be scored" in err
    assert "--registry" in err and not out.exists()


def test_rows_of_a_registry_bootcamp_make_a_run_that_can_score_them(registry_rows, tmp_path):
    out = tmp_path / "run"
    proc = run("bc-train", registry_rows["tasks"], "--val", registry_rows["val"], "-o", out,
               "--registry", registry_rows["registry"])
    assert proc.returncode == 0, proc.stderr
    config = yaml.safe_load((out / "config.yaml").read_text())
    kwargs = config["reward"]["custom_reward_function"]["reward_kwargs"]
    assert kwargs["reward_classes"] == {"bootcamp/myarith": REWARD}
    loops = yaml.safe_load((out / "agent_loops.yaml").read_text())
    assert loops[0]["interaction_config_paths"]["bootcamp/myarith"].endswith("interaction_config.yaml")
    tools = yaml.safe_load((out / "tool_config.yaml").read_text())["tools"]
    assert [t["tool_schema"]["function"]["name"] for t in tools] == ["calculate"]
    # the reward function, as verl calls it with the run's reward_kwargs, grades these rows
    row = orjson.loads(registry_rows["tasks"].read_bytes().splitlines()[0])
    identity = row["reward_model"]["ground_truth"]
    answer = f'```json\n{{"result": "{format_number(safe_eval(identity["expression"]), 17)}"}}\n```'
    extra = {"bc_final_text": answer, "turn_scores": [], "tool_rewards": [], "num_turns": 2}
    score = compute_score("bootcamp/myarith", answer, orjson.dumps(identity).decode(), extra, **kwargs)
    assert score["acc"] == 1.0
    with pytest.raises(RegistryError):  # what training hit before: an unknown bootcamp inside the reward
        compute_score("bootcamp/myarith", answer, orjson.dumps(identity).decode(), extra)


def test_a_registry_line_whose_verifier_cannot_load_is_named(registry_rows, tmp_path):
    bad = tmp_path / "reg.jsonl"
    line = orjson.loads(registry_rows["registry"].read_bytes())
    bad.write_bytes(orjson.dumps({**line, "reward_calculator_class": "builtins.print"}) + b"\n")
    proc = run("bc-train", registry_rows["tasks"], "-o", tmp_path / "run", "--registry", bad)
    assert proc.returncode == 2 and b"cannot be scored" in proc.stderr and b"builtins.print" in proc.stderr
    assert not (tmp_path / "run").exists()


@pytest.mark.verl
@pytest.mark.slow
def test_verl_accepts_the_registry_run(registry_rows, tmp_path):
    pytest.importorskip("verl")
    out = tmp_path / "run"
    assert run("bc-train", registry_rows["tasks"], "--val", registry_rows["val"], "-o", out,
               "--registry", registry_rows["registry"]).returncode == 0
    proc = run("bc-train", "--check", out)
    assert proc.returncode == 0, proc.stderr.decode()[-3000:]


@pytest.fixture(scope="module")
def sft_rows(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("sft")
    tasks = run("bc-gen", "arithmetic", "-n", "24").stdout
    traj = run("bc-eval", "--model", "builtin:reference", "-q", stdin=tasks).stdout
    sft = run("bc-filter", "--success", "--to", "sft", stdin=traj)
    assert sft.returncode == 0 and sft.stdout.count(b"\n") == 24
    (tmp / "tasks.jsonl").write_bytes(tasks)
    (tmp / "sft.jsonl").write_bytes(sft.stdout)
    return tmp


def test_a_run_folder_must_be_empty_unless_force_replaces_a_previous_run(sft_rows, tmp_path):
    out = tmp_path / "run"
    assert run("bc-train", sft_rows / "tasks.jsonl", "-o", out).returncode == 0
    assert (out / "agent_loops.yaml").exists()
    proc = run("bc-train", sft_rows / "sft.jsonl", "-o", out)  # SFT over the RL run
    assert proc.returncode == 2 and b"not empty" in proc.stderr and b"--force" in proc.stderr
    assert orjson.loads((out / "bc_train.json").read_bytes())["mode"] == "rl"  # untouched
    proc = run("bc-train", sft_rows / "sft.jsonl", "-o", out, "--force")
    assert proc.returncode == 0, proc.stderr
    assert orjson.loads((out / "bc_train.json").read_bytes())["mode"] == "sft"
    assert not (out / "agent_loops.yaml").exists() and not (out / "tool_config.yaml").exists()  # no stale RL files
    # a bad input never clears the old run
    (tmp_path / "bad.jsonl").write_bytes(b'{"nope": 1}\n')
    proc = run("bc-train", tmp_path / "bad.jsonl", "-o", out, "--force")
    assert proc.returncode == 2 and (out / "bc_train.json").exists()


def test_force_never_clears_a_folder_that_is_not_a_run(sft_rows, tmp_path):
    home = tmp_path / "notes"
    home.mkdir()
    (home / "thesis.tex").write_text("precious")
    for flags in ([], ["--force"]):
        proc = run("bc-train", sft_rows / "tasks.jsonl", "-o", home, *flags)
        assert proc.returncode == 2, proc.stderr
        assert sorted(p.name for p in home.iterdir()) == ["thesis.tex"]
    assert b"nothing was touched" in proc.stderr
    (tmp_path / "empty").mkdir()
    assert run("bc-train", sft_rows / "tasks.jsonl", "-o", tmp_path / "empty").returncode == 0


def test_a_registry_bootcamps_identities_are_checked_too(registry_rows, tmp_path):
    row = orjson.loads(registry_rows["tasks"].read_bytes().splitlines()[0])
    row["reward_model"]["ground_truth"]["expression"] = 12
    (tmp_path / "bad.jsonl").write_bytes(orjson.dumps(row) + b"\n")
    proc = run("bc-train", tmp_path / "bad.jsonl", "-o", tmp_path / "run", "--registry", registry_rows["registry"])
    assert proc.returncode == 2 and f"{tmp_path / 'bad.jsonl'}:1".encode() in proc.stderr
    assert b"expression" in proc.stderr and not (tmp_path / "run").exists()
