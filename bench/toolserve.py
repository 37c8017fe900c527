"""Benchmark bc-toolserve on loopback: 1 master + 2 workers, N concurrent sessions x 10 execute calls.

Each session is what a rollout does with `RemoteTool`: create, 10 executes, release (12 calls). The baseline is
the same client load (12 requests a session) against a bare Starlette echo route on the same uvicorn setup.
Prints success rate, calls/s, p50/p99 and the ratio of calls/s to the echo route.

    python bench/toolserve.py [--sessions 1024] [--calls 10]
"""
from __future__ import annotations

import argparse
import asyncio
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TOOL_YAML = """
tools:
  - class_name: tests.toolserve.counter_tool.CounterTool
    config: {type: native}
    tool_schema:
      type: function
      function:
        name: count
        description: add step to a counter
        parameters: {type: object, properties: {step: {type: integer}}, required: [step]}
"""


def echo_server(port: int) -> None:
    """A bare Starlette echo route served exactly like bc-toolserve serves its apps."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    from bc_toolserve.server import bind, serve

    async def echo(request: Request) -> Response:
        return Response(await request.body(), media_type="application/json")

    serve(Starlette(routes=[Route("/{tool}/{op}", echo, methods=["POST"])]), bind("127.0.0.1", port, None))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(url: str, check=lambda body: True, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=1) as resp:
                if check(resp.read()):
                    return
        except OSError:
            pass
        time.sleep(0.05)
    raise TimeoutError(url)


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


async def load_toolserve(master_url: str, sessions: int, calls: int) -> tuple[int, int, list[float], float]:
    from bc_common.errors import ToolError
    from bc_common.remote_tool import RemoteTool
    from bc_common.tool_config import load_tool_config

    spec = load_tool_config(Path(os.environ["BENCH_TOOLS"]))[0]
    tool = RemoteTool({"type": "native", "server_url": master_url, "timeout_per_query": 60}, spec.tool_schema)
    latencies: list[float] = []
    by_op: dict[str, list[float]] = {}
    ok = failed = 0

    async def timed(op, coro):
        nonlocal ok, failed
        started = time.perf_counter()
        try:
            result = await coro
            ok += 1
            return result
        except ToolError as exc:
            failed += 1
            print(f"error: {exc}", file=sys.stderr)
            return None
        finally:
            latencies.append(time.perf_counter() - started)
            by_op.setdefault(op, []).append(latencies[-1])

    async def session(i: int) -> None:
        instance_id = await timed("create", tool.create(f"s{i}", identity={}))
        if instance_id is None:
            return
        for _ in range(calls):
            await timed("execute", tool.execute(instance_id, {"step": 1}))
        await timed("release", tool.release(instance_id))

    await tool.create("warmup", identity={})
    await tool.release("warmup")
    started = time.perf_counter()
    await asyncio.gather(*(session(i) for i in range(sessions)))
    wall = time.perf_counter() - started
    for op, values in by_op.items():
        print(f"  toolserve {op:>8}: p50 {percentile(values, 0.5) * 1000:.1f} ms, "
              f"p99 {percentile(values, 0.99) * 1000:.1f} ms, max {max(values) * 1000:.1f} ms", file=sys.stderr)
    return ok, failed, latencies, wall


async def load_echo(url: str, sessions: int, calls: int) -> tuple[int, int, list[float], float]:
    import aiohttp
    import orjson

    latencies: list[float] = []
    ok = failed = 0
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0, keepalive_timeout=30)) as http:
        async def one(op: str, body: dict) -> None:
            nonlocal ok, failed
            started = time.perf_counter()
            try:
                async with http.post(f"{url}/count/{op}", data=orjson.dumps(body),
                                     headers={"Content-Type": "application/json"}) as resp:
                    orjson.loads(await resp.read())
                    ok += resp.status == 200
                    failed += resp.status != 200
            except (aiohttp.ClientError, OSError):
                failed += 1
            latencies.append(time.perf_counter() - started)

        async def session(i: int) -> None:
            await one("create", {"instance_id": f"s{i}", "create_kwargs": {"identity": {}}})
            for _ in range(calls):
                await one("execute", {"instance_id": f"s{i}", "parameters": {"step": 1}})
            await one("release", {"instance_id": f"s{i}"})

        await one("create", {"instance_id": "warmup"})
        started = time.perf_counter()
        await asyncio.gather(*(session(i) for i in range(sessions)))
        return ok, failed, latencies, time.perf_counter() - started


def report(name: str, ok: int, failed: int, latencies: list[float], wall: float) -> float:
    total = ok + failed
    rate = total / wall
    print(f"{name:>10}: {total} calls, success {ok / total:.2%}, {rate:,.0f} calls/s, "
          f"p50 {percentile(latencies, 0.5) * 1000:.1f} ms, p99 {percentile(latencies, 0.99) * 1000:.1f} ms, "
          f"wall {wall:.2f} s", file=sys.stderr)
    return rate


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=1024)
    parser.add_argument("--calls", type=int, default=10)
    parser.add_argument("--echo-server", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.echo_server is not None:
        echo_server(args.echo_server)
        return 0

    tmp = Path(tempfile.mkdtemp(prefix="bench-toolserve-"))
    tools = tmp / "tools.yaml"
    tools.write_text(TOOL_YAML)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BC_TOOLSERVE_TOKEN": "bench-token", "BENCH_TOOLS": str(tools)}
    os.environ.update(env)
    procs = []

    def spawn(*argv: str) -> None:
        procs.append(subprocess.Popen([sys.executable, *argv], cwd=ROOT, env=env,
                                      stdout=subprocess.DEVNULL, stderr=open(tmp / f"p{len(procs)}.log", "wb")))

    try:
        echo_port = free_port()
        spawn(str(Path(__file__).resolve()), "--echo-server", str(echo_port))
        master_port = free_port()
        spawn("-m", "bc_toolserve", "master", "--port", str(master_port))
        master_url = f"http://127.0.0.1:{master_port}"
        wait_http(f"{master_url}/health")
        for i in range(2):
            spawn("-m", "bc_toolserve", "worker", "--master-url", master_url, "--tools", str(tools),
                  "--worker-id", f"bench-{i}")
        wait_http(f"{master_url}/health", lambda body: body.count(b'"alive"') >= 2)

        echo = asyncio.run(load_echo(f"http://127.0.0.1:{echo_port}", args.sessions, args.calls))
        served = asyncio.run(load_toolserve(master_url, args.sessions, args.calls))
        print(f"bench toolserve: {args.sessions} concurrent sessions x (create + {args.calls} execute + release), "
              f"1 master + 2 workers, loopback, {os.cpu_count()} CPUs", file=sys.stderr)
        echo_rate = report("echo", *echo)
        served_rate = report("toolserve", *served)
        ok, failed, latencies, _ = served
        print(f"ratio toolserve/echo calls/s: {served_rate / echo_rate:.2f}   "
              f"success {ok / (ok + failed):.2%}   p99 {percentile(latencies, 0.99):.3f} s")
        return 0 if failed == 0 else 1
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


if __name__ == "__main__":
    sys.exit(main())
