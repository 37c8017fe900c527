"""The seed's mode (`--seed-compat`, or its `--dataset-path` / `--output-dir`): rows carry the seed's
`full_context` and `response_context`, and the summary CSV is the seed's sectioned report."""
from __future__ import annotations

import csv
import io
import subprocess
from pathlib import Path

import pytest

from bc_common.errors import ConfigError
from bc_eval.runner import EvalConfig, evaluate
from bc_eval.seed_compat import render_context, seed_fields

from .conftest import BIN, answer, arithmetic_task, bc_eval_env, read_jsonl, write_jsonl


def test_the_context_is_the_seeds_text_form():
    messages = [
        {"role": "system", "content": "Be exact."},
        {"role": "user", "content": [{"type": "text", "text": "What is in the picture?"},
                                     {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}]},
        {"role": "assistant", "content": "", "reasoning_content": "count first",
         "tool_calls": [{"id": "c1", "type": "function",
                         "function": {"name": "calculate", "arguments": '{"expression": "2 + 2"}'}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "4"},
        {"role": "assistant", "content": "four"},
        {"role": "user", "content": "Sure?"},
    ]
    assert render_context(messages) == (
        "System:\nBe exact.\n"
        "User:\nWhat is in the picture?\n<image>\n"
        "Assistant:\n<think>\ncount first\n</think>\n\n\n<tool_call>\nFunction: calculate\n"
        'Arguments: {"expression": "2 + 2"}</tool_call>\n'
        "<tool_response>\n4\n</tool_response>\n"
        "Assistant:\nfour\n"
        "User:\nSure?\n")
    row = {"input": {"prompt": messages[:2]}, "messages": messages}
    fields = seed_fields(row)
    assert fields["full_context"] == render_context(messages)
    assert fields["response_context"] == render_context(messages[2:])
    assert "base64" not in fields["full_context"]  # a context never carries image bytes


def _run(tmp_path: Path, url: str, seed_compat: bool, output: str = "out.jsonl"):
    task = arithmetic_task("6 × 7", interaction=False)
    tasks = write_jsonl(tmp_path / "tasks.jsonl", [task])
    config = EvalConfig(tasks=[str(tasks)], output=str(tmp_path / output), model="m", base_url=url,
                        seed_compat=seed_compat)
    return evaluate(config), read_jsonl(tmp_path / output)


@pytest.fixture
def tool_then_answer(scripted):
    prompt = arithmetic_task("6 × 7", interaction=False)["prompt"][0]["content"]
    script = [{"tool_calls": [{"name": "calculate", "arguments": {"expression": "6 × 7"}}]}, {"content": answer(42)}]
    return lambda: scripted({prompt: list(script)})[1]


def test_rows_carry_the_contexts_in_the_seeds_mode_only(tmp_path, tool_then_answer):
    _, [plain] = _run(tmp_path, tool_then_answer(), seed_compat=False, output="plain.jsonl")
    assert "full_context" not in plain and "response_context" not in plain
    summary, [row] = _run(tmp_path, tool_then_answer(), seed_compat=True)
    assert row["score"] == plain["score"] == 1.0  # the score is still the verifier on assistant text
    full, response = row["full_context"], row["response_context"]
    assert full.startswith("User:\nCompute 6 × 7 (task 0).\n") and full.endswith(response)
    assert "Compute 6 × 7" not in response
    assert "<tool_call>\nFunction: calculate\nArguments:" in response and "<tool_response>\n42" in response
    assert response.rstrip().endswith("```")  # the final answer closes it
    assert summary.seed is not None and summary.seed.total.count == 1


def test_a_resume_in_another_mode_is_refused(tmp_path, tool_then_answer):
    _run(tmp_path, tool_then_answer(), seed_compat=True)
    config = EvalConfig(tasks=[str(tmp_path / "tasks.jsonl")], output=str(tmp_path / "out.jsonl"), model="m",
                        base_url=tool_then_answer(), resume=True)
    with pytest.raises(ConfigError, match="seed_compat"):
        evaluate(config)


def test_the_summary_csv_is_the_seeds_report(tmp_path, scripted):
    tasks = [arithmetic_task("6 × 7", 0, interaction=False), arithmetic_task("1 + 1", 1, interaction=False)]
    tasks[1]["extra_info"]["generator_name"] = "other"
    scripts = {tasks[0]["prompt"][0]["content"]: [{"content": answer(42)}],
               tasks[1]["prompt"][0]["content"]: [{"faults": [{"status": 400}]}]}
    _, url = scripted(scripts)
    tasks_file = write_jsonl(tmp_path / "tasks.jsonl", tasks)
    report = tmp_path / "report.csv"
    proc = subprocess.run([str(BIN / "bc-eval"), str(tasks_file), "-o", str(tmp_path / "o.jsonl"), "--model", "m",
                           "--base-url", url, "--retries", "0", "--seed-compat", "--summary-csv", str(report), "-q",
                           "--api-extra-headers", "X-Secret:hunter2-hunter2"],
                          capture_output=True, env=bc_eval_env(), timeout=60)
    assert proc.returncode == 0, proc.stderr.decode()
    lines = list(csv.reader(io.StringIO(report.read_text(encoding="utf-8"))))
    titles = [line[0] for line in lines if len(line) == 1]
    assert titles == ["Basic Evaluation Information", "Overall Statistics", "Data Source Summary Statistics",
                      "Generator Detailed Statistics", "Error Type Statistics", "Detailed Error Information"]
    assert ["Total Samples", "2"] in lines and ["Successful Samples", "1"] in lines
    assert ["Success Rate", "50.00%"] in lines and ["Overall Average Score", "0.5000"] in lines
    [source] = [line for line in lines if line[:2] == ["bootcamp/arithmetic", "2"]]
    assert source[2:7] == ["", "1", "1", "50.00%", "1.0000"]
    generators = {line[1]: line[2:5] for line in lines if len(line) > 5 and line[0] == "bootcamp/arithmetic"
                  and line[1] in ("hand", "other")}
    assert generators == {"hand": ["1", "1", "0"], "other": ["1", "0", "1"]}
    [error] = [line for line in lines if line[:3] == ["other", "bootcamp/arithmetic", "arith-1"]]
    assert "hunter2" not in report.read_text(encoding="utf-8")
    assert error[3]
