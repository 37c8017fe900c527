"""Answers a hostile or unusual server sends: a gzip bomb, an unaccepted encoding, an Azure-style query in the
base URL. Both clients (aiohttp and the `openai` SDK) are run through the CLI against a loopback server."""
from __future__ import annotations

import subprocess
import sys
import time
import zlib
from pathlib import Path

import orjson
import pytest
from aiohttp import web

from .conftest import answer, arithmetic_task, bc_eval_env, write_jsonl
from .test_limits import CHAT, HEADER, KEY, clients, complete, serving

PEAK_SCRIPT = ("import re, sys\nfrom bc_eval.cli import main\ntry:\n    main()\nfinally:\n"
               "    hwm = re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read()).group(1)\n"
               "    print('PEAK_RSS_KB', hwm, file=sys.stderr)\n")


def _gzip_bomb(megabytes: int) -> bytes:
    """A gzip body that expands to `megabytes` MB of JSON-ish spaces, built without holding the expansion."""
    packer = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    chunk = b" " * (1 << 20)
    return b"".join([packer.compress(chunk) for _ in range(megabytes)] + [packer.flush()])


BOMB = _gzip_bomb(300)


async def _bomb(request: web.Request) -> web.Response:
    return web.Response(body=BOMB, headers={"Content-Type": "application/json", "Content-Encoding": "gzip"})


async def _brotli_claim(request: web.Request) -> web.Response:
    return web.Response(body=b"x" * 100, headers={"Content-Type": "application/json", "Content-Encoding": "br"})


def _run(tasks: Path, url: str, client: str, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", PEAK_SCRIPT, str(tasks), "--model", "m", "--retries", "0",
                           "--base-url", url, "--client", client, *extra],
                          capture_output=True, env=bc_eval_env(), timeout=120)


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the peak memory from /proc")
@pytest.mark.parametrize("client", ["aiohttp", "openai"])
def test_a_300_kb_gzip_body_expanding_to_300_mb_is_refused_with_bounded_memory(tmp_path, client):
    assert len(BOMB) < 400_000
    tasks = write_jsonl(tmp_path / "t.jsonl", [arithmetic_task("1 + 1", interaction=False)])
    with serving([web.post(CHAT, _bomb)]) as url:
        started = time.monotonic()
        proc = _run(tasks, url + "/v1", client, "--max-response-mb", "4")
        wall = time.monotonic() - started
    assert proc.returncode == 1, proc.stderr.decode()
    [row] = [orjson.loads(line) for line in proc.stdout.splitlines()]
    assert row["status"] == "error" and row["error"]["type"] == "response_too_large", row["error"]
    assert len(proc.stdout) < 100_000
    peak_mb = int(proc.stderr.split(b"PEAK_RSS_KB ")[1].split()[0]) / 1024
    assert peak_mb < 200, f"peak RSS {peak_mb:.0f} MB"  # the 300 MB expansion was never held
    assert wall < 60


def test_an_encoding_the_sdk_client_cannot_count_is_a_typed_error(tmp_path):
    tasks = write_jsonl(tmp_path / "t.jsonl", [arithmetic_task("1 + 1", interaction=False)])
    with serving([web.post(CHAT, _brotli_claim)]) as url:
        proc = _run(tasks, url + "/v1", "openai")
    [row] = [orjson.loads(line) for line in proc.stdout.splitlines()]
    assert row["error"]["type"] == "invalid_response" and "'br'" in row["error"]["message"], row["error"]


@pytest.mark.parametrize("client", ["aiohttp", "openai"])
def test_the_base_url_query_travels_on_every_request(tmp_path, client):
    """Azure-style endpoints: `.../v1?api-version=X` keeps its query on /models and on /chat/completions."""
    seen: list[str] = []

    async def chat(request: web.Request) -> web.Response:
        seen.append(request.path_qs)
        return web.json_response({"id": "c", "object": "chat.completion", "created": 0, "model": "m",
                                  "choices": [{"index": 0, "finish_reason": "stop",
                                               "message": {"role": "assistant", "content": answer(2)}}]})

    async def models(request: web.Request) -> web.Response:
        seen.append(request.path_qs)
        return web.json_response({"object": "list", "data": [{"id": "m", "object": "model"}]})

    tasks = write_jsonl(tmp_path / "t.jsonl", [arithmetic_task("1 + 1", interaction=False, tools=False)])
    with serving([web.post(CHAT, chat), web.get("/v1/models", models)]) as url:
        proc = _run(tasks, url + "/v1?api-version=2024-10-21", client)
    assert proc.returncode == 0, proc.stderr.decode()
    assert seen and "/v1/chat/completions?api-version=2024-10-21" in seen, seen
    assert all(p.endswith("?api-version=2024-10-21") for p in seen), seen


@pytest.mark.parametrize("which", [0, 1])
def test_a_server_echoing_the_first_20_characters_of_the_key_is_redacted(which):
    async def echo(request: web.Request) -> web.Response:
        shown = request.headers["Authorization"].removeprefix("Bearer ")[:20]
        header = request.headers["X-Api-Key"][:9]
        return web.json_response({"error": {"message": f"Incorrect API key provided: {shown}****; "
                                                       f"header {header}..."}}, status=401)

    with serving([web.post(CHAT, echo)]) as url:
        error = complete(clients(url)[which])
    assert error.type == "auth_error"
    assert KEY[:8] not in str(error) and HEADER[:8] not in str(error), str(error)
    assert "Incorrect API key provided: [redacted]****" in error.message
