"""The `bc-eval` command as users run it: pipelines, built-in models, flags and aliases, secrets, summaries."""
from __future__ import annotations

import subprocess

import orjson
import pytest

from bc_common.parquet_io import write_parquet
from bc_common.records import check_trajectory

from .conftest import BIN, answer, arithmetic_task, bc_eval_env, read_jsonl, write_jsonl


def bc_eval(*args: str, input: bytes | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / "bc-eval"), *args], input=input, capture_output=True,
                          env=env or bc_eval_env(), timeout=120)


@pytest.fixture(scope="module")
def generated() -> bytes:
    proc = subprocess.run([str(BIN / "bc-gen"), "arithmetic", "-n", "200"], capture_output=True, check=True)
    return proc.stdout


def test_reference_scores_one_and_noisy_less(generated, tmp_path):
    ref = bc_eval("--model", "builtin:reference", "--summary", str(tmp_path / "ref.json"), input=generated)
    assert ref.returncode == 0, ref.stderr.decode()
    rows = [orjson.loads(line) for line in ref.stdout.splitlines()]
    assert len(rows) == 200 and all(r["score"] == 1.0 and r["success"] for r in rows)
    for row in rows[:20]:
        check_trajectory(row)
    noisy = bc_eval("--model", "builtin:noisy", "--summary", str(tmp_path / "noisy.json"), input=generated)
    assert noisy.returncode == 0, noisy.stderr.decode()
    rows = [orjson.loads(line) for line in noisy.stdout.splitlines()]
    retried = [r for r in rows if any(t["type"] == "interaction" and not t["terminate"] for t in r["turns"])]
    assert retried and any(m["role"] == "user" and "incorrect" in m["content"]
                           for m in retried[0]["messages"][1:])
    ref_summary = orjson.loads((tmp_path / "ref.json").read_bytes())
    noisy_summary = orjson.loads((tmp_path / "noisy.json").read_bytes())
    assert ref_summary["total"]["mean_score"] == 1.0
    assert noisy_summary["total"]["mean_assistant_turns"] > ref_summary["total"]["mean_assistant_turns"]
    assert b"bootcamp/arithmetic" in noisy.stderr and b"pass@1" in noisy.stderr
    # a harsher error rate shows in the score; the noise is seeded, so a rerun is identical
    harsh = bc_eval("--model", "builtin:noisy", "--param", "error_rate=0.8", "-q", input=generated)
    scores = [orjson.loads(line)["score"] for line in harsh.stdout.splitlines()]
    assert sum(scores) / len(scores) < 0.9
    again = bc_eval("--model", "builtin:noisy", "--param", "error_rate=0.8", "-q", input=generated)
    assert [orjson.loads(line)["messages"] for line in again.stdout.splitlines()] == \
           [orjson.loads(line)["messages"] for line in harsh.stdout.splitlines()]


def test_samples_pass_at_k_and_csv(generated, tmp_path):
    head = b"\n".join(generated.splitlines()[:30]) + b"\n"
    proc = bc_eval("--model", "builtin:noisy", "--param", "error_rate=0.9", "--samples", "3", "--ordered",
                   "--summary", str(tmp_path / "s.json"), "--summary-csv", str(tmp_path / "s.csv"), input=head)
    rows = [orjson.loads(line) for line in proc.stdout.splitlines()]
    assert [(r["sample"]) for r in rows[:6]] == [0, 1, 2, 0, 1, 2] and len(rows) == 90
    total = orjson.loads((tmp_path / "s.json").read_bytes())["total"]
    assert total["count"] == 90 and total["tasks"] == 30 and total["pass@3"] >= total["pass@1"]
    assert (tmp_path / "s.csv").read_text().startswith("level,group,count")


def test_parquet_and_json_inputs(tmp_path):
    tasks = [arithmetic_task(f"{i} × 11", i) for i in range(3)]
    write_parquet(tasks, tmp_path / "t.parquet")
    (tmp_path / "t.json").write_bytes(orjson.dumps(tasks))
    for name in ("t.parquet", "t.json"):
        proc = bc_eval(str(tmp_path / name), "--model", "builtin:reference", "-q", "--ordered")
        assert proc.returncode == 0, proc.stderr.decode()
        rows = [orjson.loads(line) for line in proc.stdout.splitlines()]
        assert [r["input"] for r in rows] == tasks and all(r["score"] == 1.0 for r in rows)


def test_seed_flag_aliases_and_secrets_never_written(tmp_path, scripted):
    tasks = [arithmetic_task("4 × 4", 0, interaction=False)]
    server, url = scripted({tasks[0]["prompt"][0]["content"]: [{"content": answer(16)}]})
    write_jsonl(tmp_path / "t.jsonl", tasks)
    secret = "sk-very-secret-123"
    proc = bc_eval("--dataset-path", str(tmp_path / "t.jsonl"), "--output-dir", str(tmp_path / "res"),
                   "--api-model", "my/model", "--api-url", url, "--max-concurrent", "2",
                   "--api-extra-params", '{"temperature": 0.2}', "--api-extra-headers", "X-Team:evals,X-Run:7",
                   "--api-key", secret, "--verify-correction-kwargs", "tolerance:0.5",
                   "--summary", str(tmp_path / "s.json"))
    assert proc.returncode == 0, proc.stderr.decode()
    assert b"leaks into shell history" in proc.stderr
    out = tmp_path / "res" / "my_model" / "trajectories.jsonl"
    [row] = read_jsonl(out)
    assert row["model"] == "my/model" and row["score"] == 1.0
    req = server.requests[0]
    assert req["headers"]["authorization"] == f"Bearer {secret}" and req["headers"]["x-run"] == "7"
    assert req["body"]["temperature"] == 0.2
    for blob in (out.read_bytes(), proc.stderr, proc.stdout, (tmp_path / "s.json").read_bytes()):
        assert secret.encode() not in blob and b"evals" not in blob


def test_api_key_comes_from_the_environment(tmp_path, scripted):
    task = arithmetic_task("1 + 1", 0, interaction=False)
    server, url = scripted({}, default=[{"content": answer(2)}])
    env = bc_eval_env(MY_KEY="sk-from-env")
    proc = bc_eval("--model", "m", "--base-url", url, "--api-key-env", "MY_KEY", "-q",
                   input=orjson.dumps(task), env=env)
    assert proc.returncode == 0, proc.stderr.decode()
    assert server.requests[0]["headers"]["authorization"] == "Bearer sk-from-env"
    assert b"sk-from-env" not in proc.stdout


def test_bad_input_names_file_and_line(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_bytes(orjson.dumps(arithmetic_task("1 + 1")) + b"\n" + b'{"data_source": "bootcamp/arithmetic"}\n')
    proc = bc_eval(str(path), "--model", "builtin:reference")
    assert proc.returncode == 2 and f"{path}:2: missing field 'prompt'".encode() in proc.stderr
    skipped = bc_eval(str(path), "--model", "builtin:reference", "--skip-invalid", "-q")
    assert skipped.returncode == 0 and len(skipped.stdout.splitlines()) == 1 and b"skipped 1" in skipped.stderr


def test_unknown_bootcamp_is_a_clear_error(tmp_path):
    task = arithmetic_task("1 + 1") | {"data_source": "bootcamp/arithmetik"}
    proc = bc_eval("--model", "builtin:reference", input=orjson.dumps(task) + b"\n")
    assert proc.returncode == 2 and b"<stdin>:1:" in proc.stderr and b"did you mean 'arithmetic'" in proc.stderr


def test_dry_run_checks_everything_and_runs_nothing(tmp_path, scripted):
    write_jsonl(tmp_path / "t.jsonl", [arithmetic_task("1 + 1")])
    server, url = scripted({})
    ok = bc_eval(str(tmp_path / "t.jsonl"), "--model", "m", "--base-url", url, "--dry-run")
    assert ok.returncode == 0 and ok.stdout == b"", ok.stderr.decode()
    assert b"tools: calculate" in ok.stderr and b"answers" in ok.stderr and server.requests == []
    down = bc_eval(str(tmp_path / "t.jsonl"), "--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--dry-run")
    assert down.returncode == 1 and b"endpoint check failed" in down.stderr


def test_help_shows_examples():
    proc = bc_eval("--help")
    assert proc.returncode == 0 and b"bc-gen arithmetic -n 200 | bc-eval" in proc.stdout


def test_resume_needs_an_output_file():
    proc = bc_eval("--resume", input=b"")
    assert proc.returncode == 2 and b"--resume needs an output file" in proc.stderr


def test_seed_style_reward_and_tool_config_flags(tmp_path):
    """Rows of an unknown data_source run with the tools, interaction and verifier named by flags."""
    from tests.seed_configs import seed_configs

    CONFIGS = seed_configs()

    task = arithmetic_task("7 × 6", 0) | {"data_source": "custom/thing"}
    proc = bc_eval("--reward-calculator-class", "bootcamps.arithmetic.reward.ArithmeticRewardCalculator",
                   "--tool-config", str(CONFIGS / "tool_config.yaml"),
                   "--interaction-config", str(CONFIGS / "interaction_config.yaml"),
                   "--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--retries", "0", "-q",
                   input=orjson.dumps(task))
    assert proc.returncode == 1, proc.stderr.decode()  # every trajectory failed (dead endpoint); rows written
    [row] = [orjson.loads(line) for line in proc.stdout.splitlines()]
    assert row["status"] == "error" and row["error"]["type"] == "connection_error"
    assert [t["function"]["name"] for t in row["tools"]] == ["calculate"]


@pytest.mark.parametrize("flag,reason", [("--tokenizer-path", "usage fields"), ("--evaluator-class", "--reward-calculator")])
def test_seed_flags_without_an_effect_here_are_refused_with_the_reason(tmp_path, flag, reason):
    tasks = tmp_path / "t.jsonl"
    tasks.write_bytes(orjson.dumps(arithmetic_task("1 + 1")) + b"\n")
    proc = subprocess.run([str(BIN / "bc-eval"), str(tasks), "--model", "builtin:reference", flag, "x",
                           "-o", str(tmp_path / "o.jsonl")], capture_output=True, env=bc_eval_env(), timeout=60)
    assert proc.returncode == 2, proc.stderr.decode()
    assert f"{flag} is not supported" in proc.stderr.decode() and reason in proc.stderr.decode()
    assert not (tmp_path / "o.jsonl").exists()
