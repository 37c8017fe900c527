"""bc-train -o: run directories from task rows (RL) and SFT rows, written without verl."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import yaml

from .conftest import sft_row, task_row, write_jsonl

BIN = Path(sys.executable).parent
# Runs the CLI with verl made unimportable: emitting must not need the verl extra.
NO_VERL = ("import sys; sys.modules['verl'] = None; sys.modules['torch'] = None; "
           "from bc_train.cli import main; sys.argv[0] = 'bc-train'; main()")


def bc_train(*args: str, stdin: str | None = None, no_verl: bool = True) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-c", NO_VERL, *args] if no_verl else [str(BIN / "bc-train"), *args]
    return subprocess.run(cmd, input=stdin, capture_output=True, text=True, timeout=120)


def test_rl_run_dir_without_verl(tasks_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    res = bc_train(str(tasks_file), "-o", str(out), "--set", "trainer.total_epochs=2", "--n", "4")
    assert res.returncode == 0, res.stderr
    assert res.stdout == ""  # stdout carries records only; this command writes none
    for name in ("train.parquet", "val.parquet", "config.yaml", "tool_config.yaml", "agent_loops.yaml",
                 "run.sh", "README.md", "bc_train.json"):
        assert (out / name).exists(), name
    train, val = pq.read_table(out / "train.parquet"), pq.read_table(out / "val.parquet")
    assert train.num_rows + val.num_rows == 24 and val.num_rows >= 1
    assert {"data_source", "prompt", "reward_model", "extra_info", "agent_name"} <= set(train.schema.names)
    rows = train.to_pylist()
    assert {r["agent_name"] for r in rows} == {"bc_agent"}
    identity = json.loads(rows[0]["reward_model"]["ground_truth"])
    assert identity["expected_result"] == "33"
    kwargs = rows[0]["extra_info"]["tools_kwargs"]["calculate"]["create_kwargs"]
    assert json.loads(kwargs["bc_json"])["identity"] == identity
    assert rows[0]["extra_info"]["tool_selection"] == ["calculate"]

    cfg = yaml.safe_load((out / "config.yaml").read_text())
    assert cfg["hydra"]["searchpath"] == ["pkg://verl.trainer.config"]
    assert cfg["algorithm"]["adv_estimator"] == "grpo"
    rollout = cfg["actor_rollout_ref"]["rollout"]
    assert rollout["n"] == 4 and rollout["agent"]["default_agent_loop"] == "bc_agent"
    assert rollout["multi_turn"]["tool_config_path"] == "tool_config.yaml"  # relative: the folder may move
    assert cfg["reward"]["custom_reward_function"]["path"] == "pkg://bc_train.reward"
    assert "interaction_config_path" not in (out / "config.yaml").read_text()
    script = (out / "run.sh").read_text()
    assert "python3 -m verl.trainer.main_ppo" in script and "trainer.total_epochs=2" in script
    assert "\"actor_rollout_ref.rollout.multi_turn.tool_config_path='${RUN_DIR}/tool_config.yaml'\"" in script
    assert "ray start" not in script
    loops = yaml.safe_load((out / "agent_loops.yaml").read_text())
    assert loops[0]["name"] == "bc_agent" and loops[0]["_target_"] == "bc_train.agent_loop.BcAgentLoop"
    tools = yaml.safe_load((out / "tool_config.yaml").read_text())["tools"]
    assert tools[0]["config"]["bc_class_name"] == "bootcamps.arithmetic.tools.CalculatorTool"


def test_split_column_chooses_validation_rows(tmp_path: Path) -> None:
    rows = [task_row(i) for i in range(6)] + [task_row(100 + i, split="test") for i in range(2)]
    res = bc_train(str(write_jsonl(tmp_path / "t.jsonl", rows)), "-o", str(tmp_path / "run"))
    assert res.returncode == 0, res.stderr
    assert pq.read_table(tmp_path / "run" / "val.parquet").num_rows == 2


def test_batch_size_scales_with_gpus_and_multi_node_script(tasks_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    res = bc_train(str(tasks_file), "-o", str(out), "--nodes", "2", "--gpus-per-node", "8", "--rollout", "vllm")
    assert res.returncode == 0, res.stderr
    cfg = yaml.safe_load((out / "config.yaml").read_text())
    assert cfg["trainer"]["nnodes"] == 2 and cfg["trainer"]["n_gpus_per_node"] == 8
    assert cfg["data"]["train_batch_size"] == 32 * 16
    assert cfg["actor_rollout_ref"]["rollout"]["name"] == "vllm"
    script = (out / "run.sh").read_text()
    assert "ray start --head" in script and "ray start --address" in script


def test_sft_run_dir(sft_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "sft"
    res = bc_train("-o", str(out), stdin=sft_file.read_text())
    assert res.returncode == 0, res.stderr
    rows = pq.read_table(out / "train.parquet").to_pylist()
    assert len(rows) == 6
    call = rows[0]["messages"][1]["tool_calls"][0]
    assert json.loads(call["function"]["arguments"]) == {"expression": "12 + 7 × 3"}
    assert json.loads(rows[0]["tools"])[0]["function"]["name"] == "calculate"
    cfg = yaml.safe_load((out / "config.yaml").read_text())
    assert cfg["defaults"][0] == "sft_trainer_engine"
    assert cfg["data"]["custom_cls"]["name"] == "BcMultiTurnSFTDataset"
    assert "verl.trainer.sft_trainer" in (out / "run.sh").read_text()


def test_trajectory_rows_make_sft_or_rl(tmp_path: Path) -> None:
    traj = {**sft_row(0), "task_id": "arithmetic-test0000", "input": task_row(0), "model": "m", "sample": 0,
            "status": "completed"}
    traj.pop("data_source")
    src = write_jsonl(tmp_path / "traj.jsonl", [traj])
    assert bc_train(str(src), "-o", str(tmp_path / "sft")).returncode == 0
    assert pq.read_table(tmp_path / "sft" / "train.parquet").to_pylist()[0]["data_source"] == "bootcamp/arithmetic"
    res = bc_train(str(src), "-o", str(tmp_path / "rl"), "--mode", "rl")
    assert res.returncode == 0, res.stderr
    assert json.loads((tmp_path / "rl" / "bc_train.json").read_text())["mode"] == "rl"


def test_bad_row_names_file_and_line(tmp_path: Path) -> None:
    src = tmp_path / "t.jsonl"
    src.write_text(json.dumps(task_row(0)) + "\n" + json.dumps({"data_source": "bootcamp/arithmetic"}) + "\n")
    res = bc_train(str(src), "-o", str(tmp_path / "run"))
    assert res.returncode == 2
    assert f"{src}:2:" in res.stderr


def test_unknown_bootcamp_is_an_error(tmp_path: Path) -> None:
    row = {**task_row(0), "data_source": "bootcamp/arithmetik"}
    res = bc_train(str(write_jsonl(tmp_path / "t.jsonl", [row, row])), "-o", str(tmp_path / "run"))
    assert res.returncode == 2 and "arithmetic" in res.stderr  # the hint names the close match


def test_check_without_verl_says_how_to_install(tasks_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert bc_train(str(tasks_file), "-o", str(out)).returncode == 0
    res = bc_train("--check", str(out))
    assert res.returncode == 3
    assert "pip install -e '.[verl]'" in res.stderr
