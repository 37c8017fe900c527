"""The real-server tier: llama.cpp's llama-server with Gemma-3-270M on loopback, behind a recording proxy.

`make test-real-server` builds (once, cached outside the clone) and names them through the environment:
BC_LLAMA_SERVER (the binary), BC_LLAMA_MODEL (the GGUF), BC_LLAMA_TEMPLATE (a chat template with tool support).
Without them every test here is skipped, saying how to run them.
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import orjson
import pytest

from .proxy import RecordingProxy

BIN = Path(sys.executable).parent
NEEDED = ("BC_LLAMA_SERVER", "BC_LLAMA_MODEL", "BC_LLAMA_TEMPLATE")


def pytest_collection_modifyitems(config, items):
    missing = [name for name in NEEDED if not os.environ.get(name)]
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.path).parents:
            item.add_marker(pytest.mark.real_server)
            if missing:
                item.add_marker(pytest.mark.skip(reason=f"{', '.join(missing)} not set: run `make test-real-server`, "
                                                        "which builds llama-server and the model and sets them"))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_healthy(url: str, proc: subprocess.Popen, log: Path, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"llama-server exited with {proc.returncode}: {log.read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(url + "/health", timeout=2) as resp:
                if resp.status == 200 and orjson.loads(resp.read()).get("status") == "ok":
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"llama-server not healthy within {seconds:g} s: {log.read_text()[-2000:]}")


@pytest.fixture(scope="session")
def llama_server(tmp_path_factory) -> str:
    """llama-server on 127.0.0.1 (tools through --jinja and the chat template); yields its base URL."""
    log = tmp_path_factory.mktemp("llama") / "llama-server.log"
    port = _free_port()
    cmd = [os.environ["BC_LLAMA_SERVER"], "-m", os.environ["BC_LLAMA_MODEL"], "--host", "127.0.0.1",
           "--port", str(port), "--jinja", "--chat-template-file", os.environ["BC_LLAMA_TEMPLATE"],
           "-c", "8192", "-np", "1", "-t", str(min(os.cpu_count() or 2, 4)), "--seed", "7", "--no-webui",
           "-a", "gemma3-270m"]
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, proc, log)
        yield url + "/v1"
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


@pytest.fixture(scope="session")
def proxy(llama_server) -> RecordingProxy:
    """A recording proxy in front of llama-server; `proxy.url` is what bc-eval talks to."""
    recorder = RecordingProxy(llama_server[: -len("/v1")])
    with recorder.running() as url:
        recorder.url = url
        yield recorder


@pytest.fixture
def recorded(proxy) -> RecordingProxy:
    proxy.clear()
    return proxy


def bc(*args: str, stdin: bytes | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    """Run one of our CLIs (bc-gen, bc-eval) from this venv; the environment carries no API key or base URL."""
    env = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "OPENAI_BASE_URL")}
    return subprocess.run([str(BIN / args[0]), *args[1:]], input=stdin, capture_output=True, env=env,
                          timeout=timeout)


def read_jsonl(path: Path) -> list[dict]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines() if line.strip()]
