"""Secrets and limits: redaction before truncation, no redirects, credentials in URLs, tool-call caps, the size of
an answer. Real servers on loopback, real processes."""
from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from aiohttp import web

from bc_common.rollout import Limits
from bc_eval.client import ChatClient, ModelError, ModelRequest, RetryPolicy
from bc_eval.openai_client import OpenAIClient
from bc_eval.runner import EvalConfig, evaluate

from .conftest import BIN, answer, arithmetic_task, bc_eval_env, read_jsonl, write_jsonl

KEY = "sk-live-0123456789abcdef"
HEADER = "hdr-secret-abcdef012345"
CHAT = "/v1/chat/completions"


@contextlib.contextmanager
def serving(routes: list[web.RouteDef]) -> Iterator[str]:
    """An aiohttp app on a free loopback port, in its own thread and loop; yields `http://127.0.0.1:PORT`."""
    loop = asyncio.new_event_loop()
    app = web.Application()
    app.add_routes(routes)
    runner = web.AppRunner(app, access_log=None)
    loop.run_until_complete(runner.setup())
    site = web.TCPSite(runner, "127.0.0.1", 0)
    loop.run_until_complete(site.start())
    port = site._server.sockets[0].getsockname()[1]
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(timeout=10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=10)
        loop.close()


def complete(client) -> ModelError:
    async def main() -> ModelError:
        try:
            await client.complete(ModelRequest([{"role": "user", "content": "hi"}], []))
        except ModelError as exc:
            return exc
        finally:
            await client.aclose()
        raise AssertionError("no error")

    return asyncio.run(main())


def clients(url: str) -> list:
    kwargs = dict(api_key=KEY, headers={"X-Api-Key": HEADER}, retry=RetryPolicy(max_retries=0))
    return [ChatClient(url + "/v1", "m", **kwargs), OpenAIClient(url + "/v1", "m", **kwargs)]


@pytest.mark.parametrize("which", [0, 1])
def test_a_secret_straddling_the_500_character_cut_is_redacted_whole(which):
    async def echo(request: web.Request) -> web.Response:  # a proxy that echoes what it was sent, padded
        # the key starts at character 487 of the message: cut at 500 first, 13 characters of it would remain
        return web.json_response({"error": {"message": "x" * 480 + request.headers["Authorization"]}}, status=400)

    with serving([web.post(CHAT, echo)]) as url:
        exc = complete(clients(url)[which])
    text = str(exc) + str(exc.as_dict())
    assert exc.type == "bad_request" and "Bearer [redacted]" in text and KEY[:8] not in text


@pytest.mark.parametrize("which", [0, 1])
def test_redirects_are_not_followed_so_headers_never_reach_another_origin(which):
    seen = []

    async def other(request: web.Request) -> web.Response:
        seen.append(dict(request.headers))
        return web.json_response({"choices": [{"message": {"role": "assistant", "content": "stolen"}}]})

    with serving([web.post(CHAT, other), web.get("/v1/models", other)]) as elsewhere:
        async def redirect(request: web.Request) -> web.Response:
            raise web.HTTPTemporaryRedirect(elsewhere + request.path)

        with serving([web.post(CHAT, redirect), web.get("/v1/models", redirect)]) as url:
            exc = complete(clients(url)[which])
            listing = clients(url)[which]

            async def models() -> ModelError:
                try:
                    await listing.list_models()
                except ModelError as error:
                    return error
                finally:
                    await listing.aclose()
                raise AssertionError("no error")

            models_exc = asyncio.run(models())
    assert exc.type == "redirect" and "redirects are not followed" in exc.message and exc.status == 307
    assert models_exc.type == "redirect"
    assert seen == []  # neither the key nor the header went to the other port


def test_credentials_in_urls_never_reach_logs_or_rows(tmp_path, scripted):
    tasks = write_jsonl(tmp_path / "t.jsonl", [arithmetic_task("1 + 1", interaction=False)])
    _, url = scripted({}, default=[{"content": answer(2)}])
    secret_url = url.replace("http://", "http://alice:pw-secret-99@")
    dry = subprocess.run([str(BIN / "bc-eval"), str(tasks), "--model", "m", "--base-url", secret_url, "--dry-run"],
                         capture_output=True, env=bc_eval_env(), timeout=60)
    assert dry.returncode == 0, dry.stderr.decode()
    assert b"alice:[redacted]@127.0.0.1" in dry.stderr and b"pw-secret-99" not in dry.stderr
    dead = "http://alice:pw-secret-99@127.0.0.1:9/v1?api-key=qs-secret-77"
    for extra in (["--dry-run"], ["--retries", "0"], []):
        args = [str(BIN / "bc-eval"), str(tasks), "--base-url", dead, *(["--model", "m"] if extra else []), *extra]
        proc = subprocess.run(args, capture_output=True, env=bc_eval_env(), timeout=60)
        assert proc.returncode in (1, 2), proc.stderr.decode()
        for blob in (proc.stdout, proc.stderr):
            assert b"pw-secret-99" not in blob and b"qs-secret-77" not in blob


def test_a_message_with_3000_tool_calls_runs_none_of_them(tmp_path, scripted):
    task = arithmetic_task("1 + 1", interaction=False)
    calls = [{"name": "calculate", "arguments": {"expression": "1 + 1"}}] * 3000
    _, url = scripted({task["prompt"][0]["content"]: [{"tool_calls": calls}, {"content": answer(2)}]})
    out = tmp_path / "out.jsonl"
    started = time.monotonic()
    evaluate(EvalConfig(tasks=[str(write_jsonl(tmp_path / "t.jsonl", [task]))], output=str(out), model="m",
                        base_url=url))
    [row] = read_jsonl(out)
    assert time.monotonic() - started < 30
    assert row["status"] == "max_turns" and row["error"]["type"] == "too_many_tool_calls"
    assert "3000 tool calls" in row["error"]["message"] and "--max-tool-calls-per-turn" in row["error"]["message"]
    assert row["num_turns"]["tool_calls"] == 0 and not [t for t in row["turns"] if t["type"] == "tool"]


def test_the_per_trajectory_cap_stops_before_the_message_that_would_pass_it(tmp_path, scripted):
    task = arithmetic_task("2 + 2", interaction=False)
    two = [{"name": "calculate", "arguments": {"expression": "2 + 2"}}] * 2
    _, url = scripted({task["prompt"][0]["content"]: [{"tool_calls": two}, {"tool_calls": two},
                                                      {"content": answer(4)}]})
    out = tmp_path / "out.jsonl"
    evaluate(EvalConfig(tasks=[str(write_jsonl(tmp_path / "t.jsonl", [task]))], output=str(out), model="m",
                        base_url=url, limits=Limits(max_tool_calls=3)))
    [row] = read_jsonl(out)
    assert row["status"] == "max_turns" and row["error"]["type"] == "tool_call_limit"
    assert row["num_turns"] == {"assistant": 2, "user": 2, "tool_calls": 2}


def test_cap_flags_are_checked(tmp_path):
    tasks = write_jsonl(tmp_path / "t.jsonl", [arithmetic_task("1 + 1")])
    for flag in ("--max-tool-calls-per-turn", "--max-tool-calls"):
        proc = subprocess.run([str(BIN / "bc-eval"), str(tasks), "--model", "builtin:reference", flag, "0"],
                              capture_output=True, env=bc_eval_env(), timeout=60)
        assert proc.returncode == 2 and f"'{flag}': 0 is not in the range 1<=x".encode() in proc.stderr


async def _huge(request: web.Request) -> web.StreamResponse:
    """200 MB of answer, produced lazily (the server never holds it); under /announced/ it says so up front."""
    resp = web.StreamResponse(headers={"Content-Type": "application/json"})
    if request.path.startswith("/announced/"):
        resp.content_length = 200 << 20
    await resp.prepare(request)
    chunk = b" " * (1 << 20)
    with contextlib.suppress(ConnectionError, RuntimeError):
        for _ in range(200):
            await resp.write(chunk)
    return resp


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the peak memory from /proc")
@pytest.mark.parametrize("client,announce", [("aiohttp", ""), ("aiohttp", "1"), ("openai", "")])
def test_a_200_mb_answer_is_refused_early_with_bounded_memory(tmp_path, client, announce):
    tasks = write_jsonl(tmp_path / "t.jsonl", [arithmetic_task("1 + 1", interaction=False)])
    # VmHWM: this process's peak resident memory since exec (ru_maxrss would carry the forking pytest's over)
    script = ("import re, sys\nfrom bc_eval.cli import main\ntry:\n    main()\nfinally:\n"
              "    hwm = re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read()).group(1)\n"
              "    print('PEAK_RSS_KB', hwm, file=sys.stderr)\n")
    with serving([web.post(CHAT, _huge), web.post("/announced" + CHAT, _huge)]) as url:
        started = time.monotonic()
        proc = subprocess.run([sys.executable, "-c", script, str(tasks), "--model", "m", "--retries", "0",
                               "--base-url", f"{url}{'/announced' if announce else ''}/v1",
                               "--client", client, "--max-response-mb", "4"],
                              capture_output=True, env=bc_eval_env(), timeout=120)
        wall = time.monotonic() - started
    assert proc.returncode == 1, proc.stderr.decode()  # the only trajectory failed: its row is written
    [row] = [orjson.loads(line) for line in proc.stdout.splitlines()]
    assert row["status"] == "error" and row["error"]["type"] == "response_too_large"
    assert len(proc.stdout) < 100_000
    peak_mb = int(proc.stderr.split(b"PEAK_RSS_KB ")[1].split()[0]) / 1024
    assert peak_mb < 150, f"peak RSS {peak_mb:.0f} MB"  # the 200 MB answer was never held
    assert wall < 60
