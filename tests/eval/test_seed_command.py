"""The seed's example evaluation command, with our module and configs in place of the seed's paths (the configs
as `bc-gen --describe arithmetic --format yaml -o DIR` writes them)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson

from bc_common.safe_eval import format_number, safe_eval
from tests.seed_configs import seed_configs

from .conftest import answer, bc_eval_env, read_jsonl, write_jsonl

ROOT = Path(__file__).resolve().parents[2]
EXPRESSION = "88086 ÷ 38856 - 34189 + 96429 ÷ 65083 × 2882 + 21625 × 99240"


def seed_row() -> dict:
    """A row as the seed's generator wrote it (its README's example): another data_source and interaction name."""
    identity = {"expression": EXPRESSION, "expected_result": float(safe_eval(EXPRESSION)), "tolerance": "1e-4"}
    prompt = f"Task: compute {EXPRESSION} within 1e-4; answer as ```json {{\"result\": ...}}```."
    return {"data_source": "bootcamp/Example", "prompt": [{"content": prompt, "role": "user"}],
            "reward_model": {"ground_truth": identity, "style": "rule"},
            "extra_info": {"tools_kwargs": {}, "need_tools_kwargs": False, "index": 102, "split": "test",
                           "generator_name": "medium_arithmetic_w_interaction",
                           "interaction_kwargs": {"name": "example_interaction", "identity": identity}}}


def test_the_seeds_example_command_runs(tmp_path, scripted):
    row = seed_row()
    right = format_number(safe_eval(EXPRESSION), 12)
    server, url = scripted({row["prompt"][0]["content"]: [{"content": answer(1)}, {"content": answer(right)}]},
                           models=["gpt-3.5-turbo"])
    dataset = write_jsonl(tmp_path / "test.jsonl", [row])
    proc = subprocess.run([
        sys.executable, "-m", "bc_eval",
        "--dataset-path", str(dataset),
        "--output-dir", str(tmp_path / "outputs"),
        "--api-key", "sk-seed-key-1234",
        "--api-url", url,
        "--api-model", "gpt-3.5-turbo",
        "--reward-calculator-class", "bootcamps.arithmetic.reward.ArithmeticRewardCalculator",
        "--tool-config", str(seed_configs() / "tool_config.yaml"),
        "--interaction-config", str(seed_configs() / "interaction_config.yaml"),
        "--max-tool-turns-per-interaction", "5",
        "--max-interaction-turns", "3",
    ], cwd=ROOT, capture_output=True, env=bc_eval_env(), timeout=120)
    assert proc.returncode == 0, proc.stderr.decode()
    err = proc.stderr.decode()
    assert "deprecated; using --max-assistant-turns 18 --max-user-turns 18" in err
    assert "has no interaction 'example_interaction'; using its only one, 'arithmetic_feedback'" in err
    out = tmp_path / "outputs" / "gpt-3.5-turbo" / "trajectories.jsonl"
    [trajectory] = read_jsonl(out)
    assert trajectory["status"] == "completed" and trajectory["score"] == 1.0 and trajectory["error"] is None
    replies = [t for t in trajectory["turns"] if t["type"] == "interaction"]
    assert [t["name"] for t in replies] == ["arithmetic_feedback"] * 2 and replies[-1]["terminate"]
    meta = orjson.loads(out.with_name("trajectories.jsonl.meta.json").read_bytes())
    assert meta["limits"]["max_assistant_turns"] == 18 and meta["limits"]["max_user_turns"] == 18
    assert len(server.requests) == 2 and b"sk-seed-key-1234" not in out.read_bytes()
    # the seed's mode: its contexts on every row, its CSV report beside the results (where the seed wrote it)
    assert trajectory["full_context"].startswith("User:\nTask: compute") and "Assistant:\n" in trajectory["response_context"]
    report = out.with_suffix(".csv").read_text(encoding="utf-8")
    assert report.startswith("Basic Evaluation Information") and "Overall Average Score,1.0000" in report
    assert "sk-seed-key-1234" not in report


def test_our_turn_flags_win_over_the_deprecated_ones(tmp_path):
    dataset = write_jsonl(tmp_path / "test.jsonl", [seed_row()])
    proc = subprocess.run([
        sys.executable, "-m", "bc_eval", str(dataset), "--model", "builtin:reference", "-q",
        "--reward-calculator-class", "bootcamps.arithmetic.reward.ArithmeticRewardCalculator",
        "--max-interaction-turns", "2", "--max-assistant-turns", "3", "-o", str(tmp_path / "o.jsonl"),
    ], cwd=ROOT, capture_output=True, env=bc_eval_env(), timeout=120)
    assert b"using --max-assistant-turns 3 --max-user-turns 10" in proc.stderr  # 2 rounds x (4 + 1)
    assert proc.returncode == 2 and b"no reference policy" in proc.stderr  # the seed's data_source has none
