"""The model clients against a real loopback server: wire compatibility with the `openai` SDK, retries, faults."""
from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from bc_eval.client import ChatClient, ModelError, ModelRequest, RetryPolicy, parse_retry_after
from bc_eval.openai_client import OpenAIClient
from bc_eval.runner import EvalConfig, evaluate

from .conftest import answer, arithmetic_task, read_jsonl, write_jsonl

CLIENTS = {"aiohttp": ChatClient, "openai": OpenAIClient}
TOOLS = [{"type": "function", "function": {"name": "calculate", "description": "calc",
                                           "parameters": {"type": "object",
                                                          "properties": {"expression": {"type": "string"}},
                                                          "required": ["expression"]}}}]
MESSAGES = [{"role": "user", "content": "Compute 2 + 3."},
            {"role": "assistant", "content": "", "tool_calls": [
                {"id": "call_a", "type": "function",
                 "function": {"name": "calculate", "arguments": '{"expression": "2 + 3"}'}}]},
            {"role": "tool", "tool_call_id": "call_a", "content": "5"}]


def complete(cls, url: str, request: ModelRequest, **kwargs):
    async def go():
        client = cls(url, "scripted-model", **kwargs)
        try:
            return await client.complete(request)
        finally:
            await client.aclose()

    return asyncio.run(go())


def test_same_request_and_same_parsed_reply_as_the_openai_sdk(scripted):
    server, url = scripted({"Compute 2 + 3.": [
        {}, {"content": "Calling twice.", "tool_calls": [
            {"id": "c1", "name": "calculate", "arguments": {"expression": "2 + 3"}},
            {"id": "c2", "name": "calculate", "arguments": "{not json"}]}]})
    params = {"temperature": 0.5, "max_tokens": 64, "top_k": 20, "extra_body": {"chat_template_kwargs": {"x": 1}}}
    request = ModelRequest(MESSAGES, TOOLS)
    ours = complete(ChatClient, url, request, params=params, headers={"X-Trace": "t1"}, api_key="sk-test")
    sdk = complete(OpenAIClient, url, request, params=params, headers={"X-Trace": "t1"}, api_key="sk-test")
    assert server.requests[0]["body"] == server.requests[1]["body"]
    body = server.requests[0]["body"]
    assert body["top_k"] == 20 and body["chat_template_kwargs"] == {"x": 1} and body["tools"] == TOOLS
    for req in server.requests:
        assert req["headers"]["authorization"] == "Bearer sk-test" and req["headers"]["x-trace"] == "t1"
    assert ours.message == sdk.message
    assert ours.message["tool_calls"][1]["function"]["arguments"] == "{not json"
    assert (ours.finish_reason, ours.usage) == (sdk.finish_reason, sdk.usage) == ("tool_calls", ours.usage)
    assert ours.usage["total_tokens"] > 0


@pytest.mark.parametrize("client", CLIENTS)
def test_5xx_then_429_with_retry_after_are_retried(scripted, client):
    server, url = scripted({"Compute 2 + 3.": [{}, {
        "content": "ok", "faults": [{"status": 500}, {"status": 503}, {"status": 429, "retry_after": 0.4}]}]})
    started = time.perf_counter()
    reply = complete(CLIENTS[client], url, ModelRequest(MESSAGES, TOOLS),
                     retry=RetryPolicy(max_retries=5, base_delay=0.01))
    assert reply.message["content"] == "ok" and reply.attempts == 4
    assert time.perf_counter() - started >= 0.4  # Retry-After was honoured over the tiny backoff
    assert len(server.requests) == 4


@pytest.mark.parametrize("client", CLIENTS)
def test_timeout_is_retried(scripted, client):
    _, url = scripted({"Compute 2 + 3.": [{}, {"content": "late but fine", "faults": [{"delay": 6.0}]}]})
    reply = complete(CLIENTS[client], url, ModelRequest(MESSAGES, TOOLS), timeout=1.5,
                     retry=RetryPolicy(max_retries=2, base_delay=0.01))
    assert reply.message["content"] == "late but fine" and reply.attempts == 2


@pytest.mark.parametrize("client", CLIENTS)
def test_400_is_not_retried(scripted, client):
    server, url = scripted({"Compute 2 + 3.": [{}, {"faults": [
        {"status": 400, "body": {"error": {"message": "context too long"}}}]}]})
    with pytest.raises(ModelError) as info:
        complete(CLIENTS[client], url, ModelRequest(MESSAGES, TOOLS), retry=RetryPolicy(base_delay=0.01))
    assert info.value.type == "bad_request" and info.value.status == 400
    assert "context too long" in info.value.message and len(server.requests) == 1


def test_retries_give_up_with_a_typed_error(scripted):
    server, url = scripted({"Compute 2 + 3.": [{}, {"faults": [{"status": 502}] * 10}]})
    with pytest.raises(ModelError) as info:
        complete(ChatClient, url, ModelRequest(MESSAGES, TOOLS), retry=RetryPolicy(max_retries=2, base_delay=0.01))
    assert info.value.type == "server_error" and info.value.attempts == 3 and len(server.requests) == 3


def test_connection_refused_is_a_connection_error():
    with pytest.raises(ModelError) as info:
        complete(ChatClient, "http://127.0.0.1:9/v1", ModelRequest(MESSAGES, TOOLS),
                 retry=RetryPolicy(max_retries=1, base_delay=0.01))
    assert info.value.type == "connection_error"


def test_retry_after_http_date():
    assert parse_retry_after("2") == 2.0
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0
    assert parse_retry_after("soon") is None


def test_a_failed_trajectory_never_stops_the_run(tmp_path: Path, scripted):
    tasks = [arithmetic_task(f"{i} + 1", i, interaction=False) for i in range(4)]
    scripts = {t["prompt"][0]["content"]: [{"content": answer(i + 1)}] for i, t in enumerate(tasks)}
    scripts[tasks[1]["prompt"][0]["content"]] = [{"faults": [{"status": 400}]}]
    scripts[tasks[2]["prompt"][0]["content"]] = [{"faults": [{"delay": 8.0}] * 5}]
    _, url = scripted(scripts)
    out = tmp_path / "out.jsonl"
    # a timeout a loaded CI machine's quick answers stay well within, the delayed task's answers never
    evaluate(EvalConfig(tasks=[str(write_jsonl(tmp_path / "t.jsonl", tasks))], output=str(out), model="m",
                        base_url=url, timeout=1.5, retry=RetryPolicy(max_retries=1, base_delay=0.01), ordered=True))
    rows = read_jsonl(out)
    assert [r["status"] for r in rows] == ["completed", "error", "error", "completed"]
    assert rows[1]["error"]["type"] == "bad_request" and rows[2]["error"]["type"] == "timeout"
    assert rows[2]["turns"][0]["attempts"] == 2 and rows[1]["success"] is False
