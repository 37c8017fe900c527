"""bc-eval against a real third-party server: llama.cpp's llama-server with Gemma-3-270M, behind a recording proxy.

What is asserted is the wire and the records, never the model's skill: tools and tool_choice go out when tools
are offered, both clients send the same bodies and end in the same statuses, every trajectory ends in a typed
status with usage and latency, a tool call cut off at the token limit is a typed tool error with its turn kept,
a resume after kill -9 loses and duplicates nothing, the summary matches the rows, and --trace is live.
"""
from __future__ import annotations

import shlex
import signal
import subprocess
import threading
import time
from pathlib import Path

import orjson
import pytest

from bc_common.records import check_trajectory

from .conftest import BIN, bc, read_jsonl

MODEL = "gemma3-270m"
STATUSES = {"completed", "max_turns", "length", "error"}
# Greedy and short (this Gemma is a base model: it rambles, so a newline ends its turn and the interaction speaks).
# Seconds per model call on 2 shared cores make every call count.
COMMON = ["--model", MODEL, "--param", "temperature=0", "--param", "seed=7", "--param", "max_tokens=24",
          "--param", 'stop=["\\n"]', "--max-assistant-turns", "2", "-c", "1", "--ordered", "--retries", "1",
          "--timeout", "120"]
# llama-server's prompt cache changes the arithmetic of a cached prefix, so greedy answers drift between identical
# requests; without it the same requests give the same answers, through either client
NO_CACHE = ["--param", "cache_prompt=false"]


def run_eval(proxy, tmp_path: Path, tasks: Path, client: str, *extra: str) -> tuple[list[dict], dict, list[dict]]:
    """bc-eval through the proxy; returns (rows, summary, the chat exchanges it made)."""
    proxy.clear()
    out, summary = tmp_path / f"{client}.jsonl", tmp_path / f"{client}.summary.json"
    proc = bc("bc-eval", str(tasks), "-o", str(out), "--base-url", proxy.url, "--client", client,
              "--summary", str(summary), *COMMON, *extra)
    assert proc.returncode == 0, proc.stderr.decode()[-3000:]
    rows = read_jsonl(out)
    for row in rows:
        check_trajectory(row)
    return rows, orjson.loads(summary.read_bytes()), proxy.chat_exchanges()


def gen(tmp_path: Path, bootcamp: str, n: int, seed: int = 1) -> Path:
    proc = bc("bc-gen", bootcamp, "-n", str(n), "--seed", str(seed), "--split", "test")
    assert proc.returncode == 0, proc.stderr.decode()
    path = tmp_path / f"{bootcamp}.jsonl"
    path.write_bytes(proc.stdout)
    return path


def check_rows(rows: list[dict], exchanges: list[dict]) -> None:
    """Typed statuses, per-turn usage and latency that add up to the row's, matching what the server sent."""
    for row in rows:
        assert row["status"] in STATUSES
        assert row["status"] != "error", row["error"]  # every model call reached the server and was read
        model_turns = [t for t in row["turns"] if t["type"] == "model"]
        assert model_turns and all(t["latency_s"] > 0 and t["error"] is None for t in model_turns)
        for key in ("prompt_tokens", "completion_tokens", "total_tokens"):
            assert row["usage"][key] == sum(t["usage"][key] for t in model_turns) > 0
        assert row["timing"]["model_s"] >= sum(t["latency_s"] for t in model_turns) * 0.999
    sent = [e["response"]["usage"]["completion_tokens"] for e in exchanges]
    recorded = [t["usage"]["completion_tokens"] for row in rows for t in row["turns"] if t["type"] == "model"]
    assert recorded == sent  # one model turn per request, in order, with the server's own counts


def assert_summary_matches(rows: list[dict], summary: dict) -> None:
    total = summary["total"]
    assert total["count"] == len(rows) and summary["models"] == {MODEL: len(rows)}
    assert total["mean_score"] == pytest.approx(sum(r["score"] for r in rows) / len(rows))
    for status in STATUSES:
        assert total["status"][status] == sum(r["status"] == status for r in rows)
    for key in ("prompt_tokens", "completion_tokens"):
        assert total[key] == sum(r["usage"][key] for r in rows)
    calls = sum(r["num_turns"]["tool_calls"] for r in rows)
    assert total["mean_tool_calls"] == pytest.approx(calls / len(rows))
    errors = sum(t["error"] is not None for r in rows for t in r["turns"] if t["type"] == "tool")
    assert total["tool_error_rate"] == pytest.approx(errors / calls if calls else 0.0)


# arithmetic: tools offered, two model calls with the interaction's reply between; tictactoe: no tools, the
# opponent ends the game (an answer without a move loses)
@pytest.mark.parametrize("bootcamp, tools, n", [("arithmetic", True, 1), ("tictactoe", False, 2)])
def test_both_clients_same_bodies_same_statuses(tmp_path, recorded, bootcamp, tools, n):
    """`bc-gen | bc-eval` with our client, then the same tasks through the openai SDK."""
    tasks = gen(tmp_path, bootcamp, n)
    out = tmp_path / "aiohttp.jsonl"
    script = (f"set -o pipefail; {BIN}/bc-gen {bootcamp} -n {n} --seed 1 --split test | {BIN}/bc-eval "
              f"--base-url {recorded.url} --client aiohttp -o {out} --summary {tmp_path}/aiohttp.summary.json "
              + " ".join(shlex.quote(arg) for arg in COMMON + NO_CACHE))
    proc = subprocess.run(["bash", "-c", script], capture_output=True, timeout=600)
    assert proc.returncode == 0, proc.stderr.decode()[-3000:]
    ours, ours_wire = read_jsonl(out), recorded.chat_exchanges()
    ours_summary = orjson.loads((tmp_path / "aiohttp.summary.json").read_bytes())
    sdk, sdk_summary, sdk_wire = run_eval(recorded, tmp_path, tasks, "openai", *NO_CACHE)

    assert [e["request"] for e in ours_wire] == [e["request"] for e in sdk_wire]  # headers aside, the same bodies
    assert [r["status"] for r in ours] == [r["status"] for r in sdk]
    assert [r["messages"] for r in ours] == [r["messages"] for r in sdk]
    for exchange in ours_wire:
        body = exchange["request"]
        if tools:
            assert body["tools"] and body["tool_choice"] == "auto" and body["parallel_tool_calls"] is True
        else:
            assert "tools" not in body and "tool_choice" not in body and "parallel_tool_calls" not in body
        assert "timings" in exchange["response"]  # llama.cpp's own field: read past, never recorded
    for rows, summary, wire in ((ours, ours_summary, ours_wire), (sdk, sdk_summary, sdk_wire)):
        check_rows(rows, wire)
        assert_summary_matches(rows, summary)
        assert "timings" not in orjson.dumps([r["messages"] for r in rows]).decode()
    for row in ours:  # an answer that ended on its own went to the interaction (environment-driven turns)
        turns = row["turns"]
        for i, turn in enumerate(turns):
            if turn["type"] == "model" and turn["finish_reason"] == "stop":
                assert i + 1 < len(turns) and turns[i + 1]["type"] in ("interaction", "tool")


def test_tool_call_cut_off_at_the_token_limit(tmp_path, recorded):
    """tool_choice "required" makes the model write a call at once; 12 tokens cut it off inside its arguments."""
    tasks = gen(tmp_path, "arithmetic", 1, seed=5)
    rows, _, wire = run_eval(recorded, tmp_path, tasks, "aiohttp", "--param", "tool_choice=required",
                             "--param", "max_tokens=12", "--param", "stop=[]")
    answer = wire[0]["response"]["choices"][0]
    assert wire[0]["request"]["tool_choice"] == "required"
    assert answer["finish_reason"] == "length" and answer["message"]["tool_calls"]  # the server's own quirk
    [row] = rows
    assert row["status"] == "length"
    calls = row["messages"][-2]["tool_calls"] if row["messages"][-1]["role"] == "tool" else []
    assert calls, row["messages"]  # the cut-off call is kept in its assistant message...
    tool_turns = [t for t in row["turns"] if t["type"] == "tool"]
    assert tool_turns[-1]["error"]["type"] == "invalid_arguments"  # ...and answered with a typed error
    assert "cut off at the token limit" in row["messages"][-1]["content"]


def test_resume_after_kill_9_loses_and_duplicates_nothing(tmp_path, proxy):
    tasks = gen(tmp_path, "tictactoe", 3, seed=9)
    out = tmp_path / "out.jsonl"
    args = [str(BIN / "bc-eval"), str(tasks), "-o", str(out), "--base-url", proxy.url, *COMMON,
            "--max-assistant-turns", "1"]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and proc.poll() is None:
        if out.exists() and out.read_bytes().count(b"\n") >= 1:
            break
        time.sleep(0.05)
    assert proc.poll() is None, "the run ended before it could be killed: give it more tasks"
    proc.send_signal(signal.SIGKILL)
    proc.wait(30)
    before = out.read_bytes()
    kept = [line for line in before.splitlines(keepends=True) if line.endswith(b"\n")]
    assert 1 <= len(kept) < 3

    done = bc("bc-eval", str(tasks), "-o", str(out), "--base-url", proxy.url, "--resume", *COMMON,
              "--max-assistant-turns", "1")
    assert done.returncode == 0, done.stderr.decode()[-3000:]
    rows = read_jsonl(out)
    task_ids = [orjson.loads(line)["id"] for line in tasks.read_bytes().splitlines()]
    assert sorted(r["task_id"] for r in rows) == sorted(task_ids)  # nothing lost, nothing twice
    assert out.read_bytes().startswith(b"".join(kept))  # finished rows kept as they were
    assert all(r["status"] in STATUSES for r in rows)


def test_trace_shows_every_turn_as_it_happens(tmp_path, recorded):
    tasks = gen(tmp_path, "arithmetic", 2, seed=11)  # two tasks: the trace shows only the one asked for
    task_id = orjson.loads(tasks.read_bytes().splitlines()[1])["id"]
    proc = subprocess.Popen([str(BIN / "bc-eval"), str(tasks), "--debug", task_id, "-o", str(tmp_path / "o.jsonl"),
                             "--base-url", recorded.url, *COMMON], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    lines: list[tuple[float, str]] = []

    def read() -> None:
        for raw in proc.stderr:
            lines.append((time.time(), raw.decode()))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    assert proc.wait(300) == 0, "".join(text for _, text in lines)
    reader.join(30)
    traced = [(t, text) for t, text in lines if text.startswith(f"[{task_id}#0]")]
    wire = recorded.chat_exchanges()
    calls = [(t, text) for t, text in traced if "-> model call" in text]
    replies = [(t, text) for t, text in traced if "<- assistant" in text]
    assert len(calls) == len(replies) == len(wire) >= 1
    for (sent_at, _), (got_at, _), exchange in zip(calls, replies, wire, strict=True):
        # each request line is out before the server answered it, each reply line after: printed as it happens
        assert sent_at <= exchange["answered_at"] <= got_at
    assert "verdict status" in traced[-1][1] and "score" in traced[-1][1]
    assert any("user: " in text for _, text in traced)  # the prompt, as sent
    row = read_jsonl(tmp_path / "o.jsonl")[0]
    shown = sum("tool result" in text or "tool error" in text for _, text in traced)
    assert shown == sum(t["type"] == "tool" for t in row["turns"])
    assert sum("interaction " in text for _, text in traced) == sum(t["type"] == "interaction" for t in row["turns"])
