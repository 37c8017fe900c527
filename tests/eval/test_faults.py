"""bc-eval against hostile servers and hostile inputs: malformed answers, echoed secrets, dead endpoints,
SIGTERM, mixed struct parquet, bad flags and unwritable outputs."""
from __future__ import annotations

import asyncio
import signal
import socket
import subprocess
import time

import orjson
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from aiohttp import web

from bc_eval.client import ChatClient, ModelError, ModelRequest, RetryPolicy, parse_completion
from tests.seed_configs import seed_configs

from .conftest import BIN, answer, arithmetic_task, bc_eval_env, read_jsonl, write_jsonl


def bc_eval(*args: str, input: bytes | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / "bc-eval"), *args], input=input, capture_output=True,
                          env=env or bc_eval_env(), timeout=120)


def _choice(message) -> dict:
    return {"choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}


@pytest.mark.parametrize("data", [
    {"choices": []},
    {"choices": [{"index": 0, "finish_reason": "stop"}]},  # no message
    _choice("hello"),
    _choice(None),
    _choice({"role": "assistant", "content": "x", "tool_calls": {"a": 1}}),
    _choice({"role": "assistant", "content": "x", "tool_calls": [{"id": "a", "function": "calculate"}]}),
    _choice({"role": "assistant", "content": "x", "tool_calls": ["calculate"]}),
    [1, 2],
])
def test_malformed_answers_are_invalid_response(data):
    with pytest.raises(ModelError) as info:
        parse_completion(data)
    assert info.value.type == "invalid_response"


def test_odd_ids_names_and_usage_are_cleaned():
    message, finish, usage = parse_completion({
        "choices": [{"message": {"role": "assistant", "content": [{"type": "text", "text": None}],
                                 "tool_calls": [{"id": 7, "function": {"name": 3, "arguments": {"a": 1}}}]},
                     "finish_reason": 5}],
        "usage": {"prompt_tokens": True, "completion_tokens": "many", "total_tokens": 4.0}})
    call = message["tool_calls"][0]
    assert call["id"] == "" and call["function"] == {"name": "", "arguments": '{"a":1}'}
    assert message["content"] == "" and finish is None and usage == {"total_tokens": 4}


@pytest.mark.parametrize("usage", [{"prompt_tokens": -5}, {"completion_tokens": 1e300},
                                   {"total_tokens": 10**12}])
def test_negative_or_absurd_token_counts_are_invalid_responses(usage):
    """Summed into the run's totals they would falsify them: the answer is refused, typed."""
    with pytest.raises(ModelError) as info:
        parse_completion({"choices": [{"message": {"role": "assistant", "content": "4"}}], "usage": usage})
    assert info.value.type == "invalid_response" and "usage." in info.value.message


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_secrets_echoed_by_the_server_are_redacted():
    async def echo(request: web.Request) -> web.Response:
        seen = f"{request.headers.get('Authorization')} {request.headers.get('X-Org')}"
        return web.json_response({"error": {"message": f"you sent {seen}"}}, status=400)

    async def main() -> ModelError:
        app = web.Application()
        app.router.add_post("/v1/chat/completions", echo)
        runner = web.AppRunner(app)
        await runner.setup()
        port = _free_port()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        client = ChatClient(f"http://127.0.0.1:{port}/v1", "m", api_key="sk-topsecret-1234",
                            headers={"X-Org": "org-hidden-5678"}, retry=RetryPolicy(max_retries=0))
        try:
            await client.complete(ModelRequest([{"role": "user", "content": "hi"}], []))
        except ModelError as exc:
            return exc
        finally:
            await client.aclose()
            await runner.cleanup()
        raise AssertionError("no error")

    exc = asyncio.run(main())
    text = str(exc.as_dict()) + str(exc)
    assert exc.type == "bad_request" and "[redacted]" in text
    assert "sk-topsecret-1234" not in text and "org-hidden-5678" not in text


def test_every_trajectory_failing_exits_1_and_still_writes_rows(tmp_path, scripted):
    tasks = write_jsonl(tmp_path / "t.jsonl", [arithmetic_task(f"{i} + 1", i, interaction=False) for i in range(3)])
    dead = bc_eval(str(tasks), "--model", "m", "--base-url", f"http://127.0.0.1:{_free_port()}/v1",
                   "--retries", "0", "-q")
    assert dead.returncode == 1, dead.stderr.decode()
    rows = [orjson.loads(line) for line in dead.stdout.splitlines()]
    assert len(rows) == 3 and all(r["error"]["type"] == "connection_error" for r in rows)
    assert b"all 3 trajectories of this run failed" in dead.stderr and b"Traceback" not in dead.stderr
    # some failures only: the run still succeeds
    first = arithmetic_task("0 + 1", 0, interaction=False)["prompt"][0]["content"]
    _, url = scripted({first: [{"faults": [{"status": 400}]}]}, default=[{"content": answer(2)}])
    partial = bc_eval(str(tasks), "--model", "m", "--base-url", url, "--retries", "0", "-q")
    assert partial.returncode == 0, partial.stderr.decode()
    statuses = sorted(r["status"] for r in map(orjson.loads, partial.stdout.splitlines()))
    assert statuses == ["completed", "completed", "error"]


def test_sigterm_keeps_finished_rows_exits_130_and_resume_completes(tmp_path, scripted):
    tasks = write_jsonl(tmp_path / "t.jsonl", [arithmetic_task(f"{i} + 1", i, interaction=False) for i in range(40)])
    _, url = scripted(default=[{"content": answer(1), "delay": 0.15}])
    out = tmp_path / "out.jsonl"
    cmd = [str(BIN / "bc-eval"), str(tasks), "--model", "m", "--base-url", url, "-c", "4", "--samples", "2",
           "-o", str(out), "-q"]
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, env=bc_eval_env())
    deadline = time.monotonic() + 30
    while (not out.exists() or out.stat().st_size == 0) and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err.decode()
    kept = read_jsonl(out)
    assert 0 < len(kept) < 80
    resumed = subprocess.run([*cmd, "--resume"], capture_output=True, env=bc_eval_env(), timeout=120)
    assert resumed.returncode == 0, resumed.stderr.decode()
    keys = [(r["task_id"], r["sample"]) for r in read_jsonl(out)]
    assert len(keys) == 80 and len(set(keys)) == 80


def test_struct_parquet_mixing_bootcamps_runs_every_row(tmp_path):
    """pyarrow gives a no-tool row the other rows' keys as nulls (`interaction_kwargs: {name: null}`)."""
    arith = [arithmetic_task("2 + 3", 0), arithmetic_task("4 × 5", 1)]
    noop = subprocess.run([str(BIN / "bc-gen"), "noop", "-n", "2"], capture_output=True, check=True).stdout
    rows = arith + [orjson.loads(line) for line in noop.splitlines()]
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "mixed.parquet")
    proc = bc_eval(str(tmp_path / "mixed.parquet"), "--model", "builtin:reference", "-q")
    assert proc.returncode == 0, proc.stderr.decode()
    out = [orjson.loads(line) for line in proc.stdout.splitlines()]
    assert len(out) == 4 and all(r["status"] == "completed" and r["score"] == 1.0 for r in out)


def test_reward_calculator_must_be_a_verifier_class(tmp_path):
    tasks = write_jsonl(tmp_path / "t.jsonl", [dict(arithmetic_task("2 + 3"), data_source="my/own")])
    proc = bc_eval(str(tasks), "--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--reward-calculator",
                   "os.system")
    assert proc.returncode == 2 and b"verify_score" in proc.stderr and b"Traceback" not in proc.stderr
    only_tools = bc_eval(str(tasks), "--model", "m", "--base-url", "http://127.0.0.1:9/v1", "--tool-config",
                         str(seed_configs() / "tool_config.yaml"))
    assert only_tools.returncode == 2 and b"--reward-calculator" in only_tools.stderr


@pytest.mark.parametrize("flag", ["-o", "--summary", "--summary-csv"])
def test_unwritable_outputs_are_usage_errors(tmp_path, flag):
    tasks = write_jsonl(tmp_path / "t.jsonl", [arithmetic_task("2 + 3")])
    proc = bc_eval(str(tasks), "--model", "builtin:reference", "-q", flag, str(tmp_path / "no" / "such" / "f"))
    if flag == "-o":  # -o makes its folder; a file in the way cannot be one
        (tmp_path / "file").write_text("x")
        proc = bc_eval(str(tasks), "--model", "builtin:reference", "-q", flag, str(tmp_path / "file" / "out"))
    assert proc.returncode == 2, proc.stderr.decode()
    assert b"Traceback" not in proc.stderr and b"bc-eval: error:" in proc.stderr

