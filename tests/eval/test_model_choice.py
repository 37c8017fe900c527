"""Which model runs: a builtin only by name; with a server and no --model, the server's only model, else exit 2."""
from __future__ import annotations

import subprocess

import orjson

from .conftest import BIN, answer, arithmetic_task, bc_eval_env, read_jsonl, write_jsonl


def bc_eval(*args: str, input: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / "bc-eval"), *args], input=input, capture_output=True, env=bc_eval_env(),
                          timeout=120)


def test_no_model_and_no_server_names_both_options(tmp_path):
    tasks = write_jsonl(tmp_path / "t.jsonl", [arithmetic_task("1 + 1")])
    proc = bc_eval(str(tasks), "-o", str(tmp_path / "out.jsonl"))
    assert proc.returncode == 2 and proc.stdout == b""
    assert b"--model NAME with --base-url URL" in proc.stderr and b"--model builtin:reference" in proc.stderr
    assert not (tmp_path / "out.jsonl").exists()


def test_a_server_with_one_model_runs_that_model_never_a_builtin(tmp_path, scripted):
    """The issue's command: `--api-url URL --api-key K` without a model used to run builtin:reference silently."""
    tasks = [arithmetic_task(f"{i} + 2", i, interaction=False) for i in range(3)]
    server, url = scripted({}, default=[{"content": answer(-1)}], models=["qwen3-8b"])  # always wrong
    out = tmp_path / "out.jsonl"
    proc = bc_eval(str(write_jsonl(tmp_path / "t.jsonl", tasks)), "--api-url", url, "--api-key", "sk-k-1234",
                   "-o", str(out), "--summary", str(tmp_path / "s.json"))
    assert proc.returncode == 0, proc.stderr.decode()
    rows = read_jsonl(out)
    assert len(rows) == 3 and {r["model"] for r in rows} == {"qwen3-8b"} and all(r["score"] == 0.0 for r in rows)
    chats = [r for r in server.requests if r["body"].get("messages")]
    assert len(chats) == 3 and {r["body"]["model"] for r in chats} == {"qwen3-8b"}
    summary = orjson.loads((tmp_path / "s.json").read_bytes())
    assert summary["models"] == {"qwen3-8b": 3} and summary["total"]["mean_score"] == 0.0
    assert b"model: qwen3-8b" in proc.stderr


def test_a_server_with_several_or_no_models_is_exit_2_naming_the_choices(tmp_path, scripted):
    tasks = write_jsonl(tmp_path / "t.jsonl", [arithmetic_task("1 + 1")])
    server, url = scripted({}, models=["llama-70b", "qwen3-8b"])
    proc = bc_eval(str(tasks), "--base-url", url)
    assert proc.returncode == 2 and proc.stdout == b""
    assert b"lists 2 models: llama-70b, qwen3-8b; choose one with --model NAME" in proc.stderr
    assert server.requests == []  # no chat request was sent
    _, empty = scripted({}, models=[])
    proc = bc_eval(str(tasks), "--base-url", empty)
    assert proc.returncode == 2 and b"lists no models" in proc.stderr


def test_a_builtin_is_chosen_by_name_and_every_row_and_the_summary_say_so(tmp_path):
    tasks = write_jsonl(tmp_path / "t.jsonl", [arithmetic_task(f"{i} × 2", i) for i in range(4)])
    proc = bc_eval(str(tasks), "--model", "builtin:noisy", "--summary", str(tmp_path / "s.json"))
    assert proc.returncode == 0, proc.stderr.decode()
    rows = [orjson.loads(line) for line in proc.stdout.splitlines()]
    assert len(rows) == 4 and {r["model"] for r in rows} == {"builtin:noisy"}
    assert orjson.loads((tmp_path / "s.json").read_bytes())["models"] == {"builtin:noisy": 4}
    assert proc.stderr.startswith(b"model: builtin:noisy\n")
