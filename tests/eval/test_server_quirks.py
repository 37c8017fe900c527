"""What real servers do, replayed by the scripted loopback server: tool_choice, server profiles, extra answer
fields, legacy function_call, empty or null content beside tool calls, tool calls cut off at the token limit,
and the live trace. Both clients (ours and the `openai` SDK) must send the same bodies and read the same rows."""
from __future__ import annotations

import asyncio
import io
import subprocess
import sys

import pytest

from bc_common.model import ModelRequest
from bc_eval.client import ChatClient
from bc_eval.openai_client import OpenAIClient
from bc_eval.profiles import PROFILES, detect_from_answer, detect_from_models
from bc_eval.trace import TracePrinter

from .conftest import BIN, answer, arithmetic_task, bc_eval_env, read_jsonl, write_jsonl
from .test_client import MESSAGES, TOOLS
from .test_loop import run

CLIENTS = {"aiohttp": ChatClient, "openai": OpenAIClient}
TIMINGS = {"timings": {"prompt_n": 12, "predicted_n": 5, "predicted_per_second": 37.2}}


def bodies(server) -> list[dict]:
    return [r["body"] for r in server.requests if "messages" in r["body"]]


def one_call(cls, url: str, request: ModelRequest, profile: str = "auto", **kwargs):
    async def go():
        client = cls(url, "m", server_profile=profile, **kwargs)
        try:
            name = await client.detect_profile()
            return name, await client.complete(request)
        finally:
            await client.aclose()

    return asyncio.run(go())


@pytest.mark.parametrize("client", CLIENTS)
def test_tool_choice_auto_whenever_tools_are_offered_and_never_without(scripted, client):
    server, url = scripted({"Compute 2 + 3.": [{"content": "5"}]})
    one_call(CLIENTS[client], url, ModelRequest(MESSAGES[:1], TOOLS))
    one_call(CLIENTS[client], url, ModelRequest(MESSAGES[:1], []))
    one_call(CLIENTS[client], url, ModelRequest(MESSAGES[:1], TOOLS), params={"tool_choice": "required"})
    one_call(CLIENTS[client], url, ModelRequest(MESSAGES[:1], []), profile="llamacpp",
             params={"tool_choice": "required", "temperature": 0})
    with_tools, without, required, required_without_tools = bodies(server)
    assert with_tools["tool_choice"] == "auto" and with_tools["tools"] == TOOLS
    assert "tool_choice" not in without and "tools" not in without
    assert required["tool_choice"] == "required"  # --param tool_choice=... wins
    # a task without tools in the same run: no tool fields at all (servers refuse tool_choice without tools)
    assert set(required_without_tools) == {"model", "messages", "temperature"}


def test_both_clients_send_the_same_bodies_under_every_profile(scripted):
    server, url = scripted({"Compute 2 + 3.": [{"content": "5"}]})
    params = {"temperature": 0, "max_tokens": 32, "top_k": 1}
    for name in ("generic", "vllm", "sglang", "llamacpp", "openai"):
        before = len(server.requests)
        one_call(ChatClient, url, ModelRequest(MESSAGES, TOOLS), profile=name, params=params)
        one_call(OpenAIClient, url, ModelRequest(MESSAGES, TOOLS), profile=name, params=params)
        ours, sdk = [r["body"] for r in server.requests[before:]]
        assert ours == sdk, name
    llamacpp = bodies(server)[6]
    assert llamacpp["parallel_tool_calls"] is True and llamacpp["tool_choice"] == "auto"
    openai_body = bodies(server)[8]
    assert openai_body["max_completion_tokens"] == 32 and "max_tokens" not in openai_body
    assert "parallel_tool_calls" not in bodies(server)[0] and bodies(server)[0]["max_tokens"] == 32


@pytest.mark.parametrize("owned_by, expected", [("llamacpp", "llamacpp"), ("vllm", "vllm"), ("sglang", "sglang"),
                                                ("openai", "openai"), ("system", "openai"), ("me", "generic")])
@pytest.mark.parametrize("client", CLIENTS)
def test_profile_is_detected_from_get_models(scripted, client, owned_by, expected):
    server, url = scripted({"Compute 2 + 3.": [{"content": "5"}]}, models_extra={"owned_by": owned_by})
    name, _ = one_call(CLIENTS[client], url, ModelRequest(MESSAGES[:1], TOOLS))
    assert name == expected
    assert ("parallel_tool_calls" in bodies(server)[0]) == (expected == "llamacpp")


@pytest.mark.parametrize("client", CLIENTS)
def test_profile_is_detected_from_the_first_answer_when_models_says_nothing(scripted, client):
    server, url = scripted({"Compute 2 + 3.": [{"content": "5", "extra": TIMINGS}]})

    async def go():
        model = CLIENTS[client](url, "m")
        try:
            assert await model.detect_profile() == "generic"
            await model.complete(ModelRequest(MESSAGES[:1], TOOLS))
            await model.complete(ModelRequest(MESSAGES[:1], TOOLS))
            return model.profiler.profile.name, model.profiler.detected_by
        finally:
            await model.aclose()

    assert asyncio.run(go()) == ("llamacpp", "response fields")
    first, second = bodies(server)
    assert "parallel_tool_calls" not in first and second["parallel_tool_calls"] is True


def test_detection_rules():
    assert detect_from_models({"data": [{"id": "x", "max_model_len": 4096}]}) == "vllm"
    assert detect_from_models({"models": [], "data": [{"id": "g", "meta": {"n_ctx_train": 32768}}]}) == "llamacpp"
    assert detect_from_models({"data": [{"id": "x"}]}) is None and detect_from_models("junk") is None
    assert detect_from_answer({"choices": [{"matched_stop": 1}]}) == "sglang"
    assert detect_from_answer({"choices": [{"stop_reason": None}]}) == "vllm"
    assert detect_from_answer({"system_fingerprint": "fp_44709d6fcb", "choices": [{}]}) == "openai"
    assert detect_from_answer({"choices": [{}]}) is None
    assert PROFILES["vllm"].tool_flags.startswith("--enable-auto-tool-choice")


@pytest.mark.parametrize("client", CLIENTS)
def test_a_400_about_tools_names_the_flags_the_server_needs(scripted, client):
    message = '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set'
    _, url = scripted({"Compute 2 + 3.": [{"faults": [{"status": 400, "body": {"error": {"message": message}}}]}]},
                      models_extra={"owned_by": "vllm"})
    with pytest.raises(Exception) as caught:
        one_call(CLIENTS[client], url, ModelRequest(MESSAGES[:1], TOOLS))
    assert caught.value.type == "bad_request"
    assert "vllm serves tool calls when started with --enable-auto-tool-choice --tool-call-parser" in str(caught.value)


QUIRKS = {
    "timings and null content": {"tool_calls": [{"name": "calculate", "arguments": {"expression": "12 × 7 + 5"}}],
                                 "extra": TIMINGS, "message": {"content": None}},
    "empty content": {"tool_calls": [{"name": "calculate", "arguments": {"expression": "12 × 7 + 5"}}],
                      "message": {"content": ""}},
    "legacy function_call": {"content": "", "message": {
        "function_call": {"name": "calculate", "arguments": '{"expression": "12 × 7 + 5"}'}}},
}


@pytest.mark.parametrize("quirk", QUIRKS)
@pytest.mark.parametrize("client", CLIENTS)
def test_quirky_answers_still_give_clean_rows(tmp_path, scripted, client, quirk):
    task = arithmetic_task("12 × 7 + 5", interaction=False)
    server, url = scripted({task["prompt"][0]["content"]: [QUIRKS[quirk], {"content": answer(89), "extra": TIMINGS}]})
    [row] = run(tmp_path, url, [task], client=client)
    assert row["status"] == "completed" and row["score"] == 1.0
    assistant = row["messages"][1]
    assert assistant["content"] == "" and assistant["tool_calls"][0]["function"]["name"] == "calculate"
    assert row["messages"][2] == {"role": "tool", "tool_call_id": assistant["tool_calls"][0]["id"], "content": "89"}
    # the call goes back to the server as a tool call, whatever shape it came in
    assert bodies(server)[1]["messages"][1]["tool_calls"][0]["id"] == assistant["tool_calls"][0]["id"]
    assert all("timings" not in str(m) for m in row["messages"])


@pytest.mark.parametrize("client", CLIENTS)
def test_tool_call_cut_off_at_the_token_limit_is_a_typed_error_and_the_turn_is_kept(tmp_path, scripted, client):
    task = arithmetic_task("12 × 7 + 5")
    _, url = scripted({task["prompt"][0]["content"]: [
        {"content": "", "finish_reason": "length", "extra": TIMINGS,
         "tool_calls": [{"name": "calculate", "arguments": {"expression": "1 + 1"}},
                        {"name": "calculate", "arguments": '{"expression": "12 × 7'}]}]})
    [row] = run(tmp_path, url, [task], client=client)
    assert row["status"] == "length"
    assert [m["role"] for m in row["messages"]] == ["user", "assistant", "tool", "tool"]
    first, cut = [t for t in row["turns"] if t["type"] == "tool"]
    assert first["error"] is None and row["messages"][2]["content"] == "2"  # a whole call before the cut runs
    assert cut["error"]["type"] == "invalid_arguments" and "cut off at the token limit" in cut["error"]["message"]
    assert row["messages"][3]["content"].startswith("Error: the tool call was cut off")
    assert row["num_turns"] == {"assistant": 1, "user": 2, "tool_calls": 2} and row["usage"]["total_tokens"] > 0


def test_trace_prints_every_turn_as_it_happens(tmp_path, scripted):
    task = arithmetic_task("12 × 7 + 5", index=3)
    _, url = scripted({task["prompt"][0]["content"]: [
        {"content": "Let me check.", "tool_calls": [{"name": "calculate", "arguments": {"expression": "12 × 7 + 5"}}]},
        {"content": answer(88)}, {"content": answer(89)}]})
    tasks = write_jsonl(tmp_path / "tasks.jsonl", [arithmetic_task("1 + 1", index=1), task])
    proc = subprocess.run([str(BIN / "bc-eval"), str(tasks), "--model", "scripted", "--base-url", url,
                           "--debug", "arith-3", "-o", str(tmp_path / "out.jsonl")],
                          capture_output=True, text=True, env=bc_eval_env(), timeout=60)
    assert proc.returncode == 0, proc.stderr
    [row] = read_jsonl(tmp_path / "out.jsonl")  # only the task asked for
    assert row["task_id"] == "arith-3"
    lines = [line for line in proc.stderr.splitlines() if line.startswith("[arith-3#0]")]
    expected = ["-> model call 0", "user: Compute 12 × 7 + 5", "<- assistant", "tool call calculate",
                "tool result calculate", "-> model call 1", "<- assistant", "interaction arithmetic_feedback (score 0)",
                "-> model call 2", "<- assistant", "interaction arithmetic_feedback (score 1, terminates)",
                "== verdict status completed, extracted"]
    assert len(lines) == len(expected), proc.stderr
    for line, start in zip(lines, expected, strict=True):
        assert start in line, (start, line)
    assert "Let me check." in lines[2] and '"89"' in lines[-1] and "score 1" in lines[-1]
    assert "\x1b[" not in proc.stderr  # no colour when stderr is not a terminal
    assert "server profile generic" in proc.stderr


def test_trace_colours_a_terminal_only():
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    tty, plain = Tty(), io.StringIO()
    for stream in (tty, plain):
        TracePrinter(stream).for_trajectory("t", 0)("interaction", {"name": "f", "text": "ok", "score": 1.0,
                                                                     "terminate": True, "latency_s": 0.0})
    assert "\x1b[34m" in tty.getvalue() and "\x1b[" not in plain.getvalue()


def test_trace_shows_a_failed_model_call(tmp_path, scripted):
    task = arithmetic_task("2 + 2", index=4)
    _, url = scripted({task["prompt"][0]["content"]: [{"faults": [{"status": 401}]}]})
    tasks = write_jsonl(tmp_path / "tasks.jsonl", [task])
    proc = subprocess.run([str(BIN / "bc-eval"), str(tasks), "--model", "scripted", "--base-url", url, "--trace",
                           "-o", str(tmp_path / "out.jsonl"), "-q"],
                          capture_output=True, text=True, env=bc_eval_env(), timeout=60)
    assert proc.returncode == 1  # every trajectory failed
    lines = [line for line in proc.stderr.splitlines() if line.startswith("[arith-4#0]")]
    assert "<- model error auth_error: HTTP 401" in lines[-2]
    assert "verdict status error" in lines[-1] and "error auth_error" in lines[-1]


def test_debug_of_an_unknown_task_is_exit_2(tmp_path):
    tasks = write_jsonl(tmp_path / "tasks.jsonl", [arithmetic_task("1 + 1", index=1)])
    proc = subprocess.run([sys.executable, "-m", "bc_eval", str(tasks), "--model", "builtin:reference",
                           "--debug", "nope", "-o", str(tmp_path / "out.jsonl")],
                          capture_output=True, text=True, env=bc_eval_env(), timeout=60)
    assert proc.returncode == 2 and "--debug nope: no task with that id" in proc.stderr


def test_dry_run_names_the_server_profile(tmp_path, scripted):
    _, url = scripted({}, models_extra={"owned_by": "sglang"})
    tasks = write_jsonl(tmp_path / "tasks.jsonl", [arithmetic_task("1 + 1", index=1)])
    proc = subprocess.run([str(BIN / "bc-eval"), str(tasks), "--base-url", url, "--dry-run"],
                          capture_output=True, text=True, env=bc_eval_env(), timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "model: server profile sglang (GET /models)" in proc.stderr
