"""Benchmark bc-toolserve's MCP endpoint on loopback: 1 master + 1 worker serving arithmetic's `calculate`.

N sessions, `-c` at a time, each: open an MCP session (the SDK's client: initialize), 10 `tools/call`, close (the
instance is released). The baseline, measured in the same run against the same master, is the same work over
bc-toolserve's own HTTP protocol with `RemoteTool` (create, 10 executes, release). Prints tool calls/s of both,
the ratio, the p50 of one session's wall time, and the server's CPU (master + worker, from /proc) per tool call:
the client's own cost (the SDK's session setup is most of it) is in the wall figures, not in the CPU ones. Needs
the `mcp` extra.

    python bench/toolserve_mcp.py [--sessions 200] [-c 16] [--calls 10]
"""
from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
try:
    import mcp  # noqa: F401
except ImportError:  # `make bench` installs the core only
    print("bench/toolserve_mcp.py: skipped (needs the mcp extra: pip install 'bootcamp-harness[mcp]')")
    sys.exit(0)
TOKEN = "bench-token-123456"


def server_cpu(pids: list[int]) -> float:
    """CPU seconds (user + system) the server processes used so far (Linux /proc)."""
    total = 0
    for pid in pids:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_alive(url: str, timeout: float = 60.0) -> None:
    import json

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/health", timeout=1) as resp:
                if json.load(resp).get("workers_alive") == 1:
                    return
        except OSError:
            pass
        time.sleep(0.1)
    raise SystemExit("bench: the master and worker did not come up")


async def run_sessions(one_session, sessions: int, concurrency: int) -> tuple[float, list[float]]:
    gate = asyncio.Semaphore(concurrency)
    walls: list[float] = []

    async def guarded(i: int) -> None:
        async with gate:
            started = time.perf_counter()
            await one_session(i)
            walls.append(time.perf_counter() - started)

    started = time.perf_counter()
    await asyncio.gather(*(guarded(i) for i in range(sessions)))
    return time.perf_counter() - started, walls


async def main(args: argparse.Namespace) -> None:
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    from bc_common.remote_tool import RemoteTool, close_sessions
    from bootcamps.arithmetic.tools import CalculatorTool

    url = args.url
    calls = [{"expression": f"{i} * 7 + 3"} for i in range(args.calls)]

    async def over_mcp(i: int) -> None:
        async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"}) as http, Client(
                streamable_http_client(f"{url}/mcp?bootcamp=arithmetic&index={i}", http_client=http),
                mode="legacy") as client:
            for arguments in calls:
                result = await client.call_tool("calculate", arguments)
                assert not result.is_error, result.content[0].text

    remote = RemoteTool({"server_url": url}, CalculatorTool.tool_schema)

    async def over_http(i: int) -> None:
        instance = await remote.create(identity={})
        try:
            for arguments in calls:
                await remote.execute(instance, arguments)
        finally:
            await remote.release(instance)

    await run_sessions(over_http, 8, 4)  # warm both paths up
    await run_sessions(over_mcp, 8, 4)
    cpu0 = server_cpu(args.pids)
    http_s, http_walls = await run_sessions(over_http, args.sessions, args.concurrency)
    cpu1 = server_cpu(args.pids)
    mcp_s, mcp_walls = await run_sessions(over_mcp, args.sessions, args.concurrency)
    cpu2 = server_cpu(args.pids)
    await close_sessions()
    n = args.sessions * args.calls
    for name, wall, walls, cpu in (("HTTP protocol (RemoteTool)", http_s, http_walls, cpu1 - cpu0),
                                   ("MCP (the SDK's client)    ", mcp_s, mcp_walls, cpu2 - cpu1)):
        print(f"{name}: {n / wall:6.0f} tool calls/s, session p50 {statistics.median(walls) * 1e3:5.0f} ms, "
              f"server CPU {cpu / n * 1e3:.2f} ms/call")
    print(f"ratio MCP / HTTP protocol: {http_s / mcp_s:.2f}x calls/s, {(cpu2 - cpu1) / max(cpu1 - cpu0, 1e-9):.2f}x "
          f"server CPU ({args.sessions} sessions x {args.calls} calls, -c {args.concurrency})")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("-c", "--concurrency", type=int, default=16)
    parser.add_argument("--calls", type=int, default=10)
    args = parser.parse_args()
    port = free_port()
    args.url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "BC_TOOLSERVE_TOKEN": TOKEN}
    os.environ["BC_TOOLSERVE_TOKEN"] = TOKEN
    me = [sys.executable, "-m", "bc_toolserve"]
    procs = [subprocess.Popen(me + ["master", "--port", str(port)], env=env, stderr=subprocess.DEVNULL)]
    try:
        procs.append(subprocess.Popen(me + ["worker", "--master-url", args.url, "--tools", "arithmetic"], env=env,
                                      stderr=subprocess.DEVNULL))
        wait_alive(args.url)
        args.pids = [proc.pid for proc in procs]
        asyncio.run(main(args))
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait(timeout=10)
