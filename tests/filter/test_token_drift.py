"""`bc-filter --check-token-drift`: trajectories recorded with `bc-eval --record-tokens` against a scripted server
in vLLM's and in SGLang's shapes (their prompt ids computed by a real tokenizer: bc-train's offline one) pass untouched, and a row
whose stored message or stored ids were edited is flagged at the turn, the token position and the first differing
token; with the tokenizer folder and with a server's /tokenize (vLLM's shape and llama.cpp's)."""
from __future__ import annotations

import contextlib
import subprocess
import sys
import threading
import time
from pathlib import Path

import orjson
import pytest

pytest.importorskip("transformers")

import uvicorn  # noqa: E402
from starlette.applications import Starlette  # noqa: E402
from starlette.requests import Request  # noqa: E402
from starlette.responses import JSONResponse  # noqa: E402
from starlette.routing import Route  # noqa: E402

from bc_common.loopback import listen  # noqa: E402
from bc_eval.testing import ScriptedServer  # noqa: E402
from bc_train.tokenizer import build_offline_tokenizer  # noqa: E402

from ..eval.conftest import answer, arithmetic_task, bc_eval_env  # noqa: E402

BIN = Path(sys.executable).parent
STEPS = [{"tool_calls": [{"name": "calculate", "arguments": {"expression": "2 + 3"}}]},
         {"content": answer(4)}, {"content": answer(5)}]


def ids(value) -> list[int]:
    return list(value["input_ids"] if hasattr(value, "keys") else value)


@pytest.fixture(scope="module")
def tokenizer(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tokenizer")
    return folder, build_offline_tokenizer(folder)


def render(tok, messages, tools) -> list[int]:
    return ids(tok.apply_chat_template(messages, tools=tools or None, add_generation_prompt=True, tokenize=True))


@pytest.fixture(scope="module", params=["vllm", "sglang"])
def recorded(tokenizer, tmp_path_factory, request) -> Path:
    """A trajectory of three model turns recorded with --record-tokens from a server in vLLM's shape (prompt ids at
    the top) or SGLang's (prompt ids in the choice, asked with return_prompt_token_ids)."""
    _, tok = tokenizer

    def tokenize(body, message):
        prompt = render(tok, body["messages"], body.get("tools"))
        full = ids(tok.apply_chat_template(body["messages"] + [message], tools=body.get("tools") or None,
                                           tokenize=True))
        assert full[:len(prompt)] == prompt
        return prompt, full[len(prompt):-1]  # the reply through <|im_end|>, not the newline the template adds

    tmp = tmp_path_factory.mktemp("run")
    server = ScriptedServer({"Compute 2 + 3.": STEPS}, models_extra={"owned_by": request.param}, tokenize=tokenize)
    tasks = tmp / "tasks.jsonl"
    tasks.write_bytes(orjson.dumps(arithmetic_task("2 + 3", prompt="Compute 2 + 3.")) + b"\n")
    out = tmp / "traj.jsonl"
    with server.running() as url:
        subprocess.run([str(BIN / "bc-eval"), str(tasks), "-o", str(out), "--model", "m", "--base-url", url,
                        "--record-tokens", "-q"], check=True, env=bc_eval_env())
    [row] = [orjson.loads(line) for line in out.read_bytes().splitlines()]
    assert [bool(t.get("tokens", {}).get("prompt_ids")) for t in row["turns"] if t["type"] == "model"] == [True] * 3
    return out


def check(*args: str) -> tuple[subprocess.CompletedProcess, list[dict]]:
    proc = subprocess.run([str(BIN / "bc-filter"), "--check-token-drift", *args], capture_output=True)
    rows = [orjson.loads(line) for line in proc.stdout.splitlines()]
    return proc, rows


def edited(path: Path, tmp_path: Path, change) -> Path:
    [row] = [orjson.loads(line) for line in path.read_bytes().splitlines()]
    change(row)
    out = tmp_path / "edited.jsonl"
    out.write_bytes(orjson.dumps(row) + b"\n")
    return out


@contextlib.contextmanager
def tokenize_server(tok, shape: str):
    """A loopback server tokenizing with `tok`: vLLM's /tokenize {messages}, or llama.cpp's /apply-template +
    /tokenize {content}."""
    async def tokenize(request: Request) -> JSONResponse:
        body = orjson.loads(await request.body())
        if shape == "llamacpp":
            tokens = tok.encode(body["content"], add_special_tokens=False)
        else:
            tokens = render(tok, body["messages"], body.get("tools"))
        return JSONResponse({"tokens": tokens, "count": len(tokens), "max_model_len": 4096})

    async def apply_template(request: Request) -> JSONResponse:
        body = orjson.loads(await request.body())
        return JSONResponse({"prompt": tok.apply_chat_template(body["messages"], tools=body.get("tools") or None,
                                                               add_generation_prompt=True, tokenize=False)})

    routes = [Route("/tokenize", tokenize, methods=["POST"])]
    if shape == "llamacpp":
        routes.append(Route("/apply-template", apply_template, methods=["POST"]))
    sock = listen()
    server = uvicorn.Server(uvicorn.Config(Starlette(routes=routes), log_level="error", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/v1"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def test_untouched_rows_pass_with_the_tokenizer_folder(recorded, tokenizer):
    proc, [row] = check("--tokenizer", str(tokenizer[0]), str(recorded))
    assert proc.returncode == 0, proc.stderr.decode()
    assert row["token_drift"] == []
    assert "token drift: 0 of 3 turns in 0 of 1 rows; 0 turns had no prompt ids" in proc.stderr.decode()


def test_an_edited_tool_result_is_flagged_at_the_first_differing_token(recorded, tokenizer, tmp_path):
    folder, tok = tokenizer

    def change(row):
        assert row["messages"][2]["role"] == "tool" and row["messages"][2]["content"] == "5"
        row["messages"][2]["content"] = "6"

    path = edited(recorded, tmp_path, change)
    proc, [row] = check("--tokenizer", str(folder), str(path))
    assert proc.returncode == 0, proc.stderr.decode()
    original = [orjson.loads(line) for line in recorded.read_bytes().splitlines()][0]
    stored = [t["tokens"]["prompt_ids"] for t in original["turns"] if t["type"] == "model"]
    rerendered = render(tok, row["messages"][:3], row["tools"])
    position = next(i for i, (a, b) in enumerate(zip(stored[1], rerendered, strict=False)) if a != b)
    findings = row["token_drift"]
    assert [(f["turn"], f["check"]) for f in findings] == [(1, "render"), (2, "render")]  # turn 0 saw no tool result
    assert findings[0]["position"] == position
    assert (findings[0]["expected"], findings[0]["found"]) == (stored[1][position], rerendered[position])
    assert tok.convert_ids_to_tokens(findings[0]["expected"]) == "5"
    assert tok.convert_ids_to_tokens(findings[0]["found"]) == "6"
    assert f"token drift: 2 of 3 turns in 1 of 1 rows (first: {row['id']} turn 1 render at token {position}" in \
        proc.stderr.decode()


def test_stored_ids_that_do_not_continue_the_previous_turn_are_flagged_without_a_tokenizer(recorded, tmp_path):
    def change(row):
        model = [t for t in row["turns"] if t["type"] == "model"]
        model[1]["tokens"]["completion_ids"][2] += 1  # the completion the server reported is not in turn 2's prompt

    proc, [row] = check(str(edited(recorded, tmp_path, change)))
    assert proc.returncode == 0, proc.stderr.decode()
    [finding] = row["token_drift"]
    assert finding["turn"] == 2 and finding["check"] == "continuation"
    prompt_1 = [t for t in row["turns"] if t["type"] == "model"][1]["tokens"]["prompt_ids"]
    assert finding["position"] == len(prompt_1) + 2
    assert finding["expected"] == finding["found"] + 1


@pytest.mark.parametrize("shape", ["vllm", "llamacpp"])
def test_a_servers_tokenize_endpoint_gives_the_same_verdicts(recorded, tokenizer, tmp_path, shape):
    _, tok = tokenizer
    path = edited(recorded, tmp_path, lambda row: row["messages"][2].update(content="6"))
    with tokenize_server(tok, shape) as url:
        proc, [clean] = check("--tokenizer", url, str(recorded))
        assert proc.returncode == 0, proc.stderr.decode()
        proc, [row] = check("--tokenizer", url, str(path))
    assert clean["token_drift"] == []
    assert [(f["turn"], f["check"]) for f in row["token_drift"]] == [(1, "render"), (2, "render")]


def test_rows_without_ids_are_counted_and_a_bad_tokenizer_is_exit_2(recorded, tmp_path):
    def strip(row):
        for turn in row["turns"]:
            turn.pop("tokens", None)

    proc, [row] = check(str(edited(recorded, tmp_path, strip)))
    assert row["token_drift"] == [] and "0 of 0 turns in 0 of 1 rows; 3 turns had no prompt ids" in \
        proc.stderr.decode()
    proc, _ = check("--tokenizer", str(tmp_path / "nowhere"), str(recorded))
    assert proc.returncode == 2 and "--tokenizer" in proc.stderr.decode()


def test_a_conversation_whose_messages_were_cut_names_the_line(recorded, tmp_path):
    proc, _ = check(str(edited(recorded, tmp_path, lambda row: row["messages"].pop())))
    assert proc.returncode == 2
    assert "edited.jsonl:1" in proc.stderr.decode() and "3 answered model turns but 2 assistant messages" in \
        proc.stderr.decode()
