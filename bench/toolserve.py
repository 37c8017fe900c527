"""Benchmark bc-toolserve on loopback: 1 master + 2 workers, N concurrent sessions x 10 execute calls.

Measures what a client sees: one aiohttp session with an unlimited connector runs N concurrent sessions of
create, 10 x execute, release (12 calls each), timing every call. Two shapes: `nested` (ours, as RemoteTool
calls: create at the master, the rest at the worker named in the answer) and `seed` (the seed's clients:
every call at the master, `/CounterTool/...`, flat execute parameters). The baseline is the same client load
against a bare Starlette echo route served like bc-toolserve; runs alternate baseline / toolserve so both see
the same machine. Prints per-run lines, then per shape the median calls/s ratio, success, p99 and max.

    python bench/toolserve.py [--sessions 1024] [--calls 10] [--rounds 3] [--shapes nested,seed]
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
import urllib.error
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


def wait_http(url: str, check=lambda body: True, timeout: float = 30.0, ok_status: int = 200) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=1) as resp:
                if check(resp.read()):
                    return
        except urllib.error.HTTPError as exc:
            if exc.code == ok_status:
                return
        except OSError:
            pass
        time.sleep(0.05)
    raise TimeoutError(url)


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process `pid` so far (Linux /proc; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Run:
    """What the client saw in one run: per-call latencies, failures, wall time; CPU per call of each process."""

    def __init__(self, name: str):
        self.name, self.latencies, self.failed, self.wall, self.errors = name, [], 0, 0.0, {}
        self.by_op: dict[str, list[float]] = {}
        self.cpu: dict[str, float] = {}  # process name -> CPU µs per call

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.wall

    def line(self) -> str:
        total = len(self.latencies)
        return (f"{self.name:>13}: {total} calls, success {(total - self.failed) / total:.2%}, {self.rate:,.0f} calls/s, "
                f"p50 {percentile(self.latencies, 0.5) * 1000:.0f} ms, p99 {percentile(self.latencies, 0.99) * 1000:.0f} ms, "
                f"max {max(self.latencies) * 1000:.0f} ms, wall {self.wall:.2f} s"
                + (f", errors {self.errors}" if self.errors else "")
                + (f"\n{'':>15}CPU per call: " + ", ".join(f"{k} {v:.0f} µs" for k, v in self.cpu.items())
                   if self.cpu else "")
                + "".join(f"\n{'':>15}{op}: p50 {percentile(v, 0.5) * 1000:.0f} ms, p99 {percentile(v, 0.99) * 1000:.0f} ms"
                          for op, v in self.by_op.items()))


async def load(shape: str, base: str, sessions: int, calls: int, token: str | None) -> Run:
    """`sessions` concurrent sessions of create, `calls` x execute, release, through one aiohttp session with an
    unlimited connector. Shapes: `echo` (the baseline route), `nested` (ours, as RemoteTool does it: create at
    the master, then the worker named in the answer), `seed` (the seed's clients: everything at the master,
    `/<ToolClassName>/...`, flat execute parameters)."""
    import aiohttp
    import orjson

    run = Run(shape)
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    tool = "CounterTool" if shape == "seed" else "count"
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
        async def one(url: str, body: dict) -> dict | None:
            started = time.perf_counter()
            try:
                async with http.post(url, data=orjson.dumps(body), headers=headers) as resp:
                    answer = orjson.loads(await resp.read())
                    if resp.status != 200:
                        raise RuntimeError(f"HTTP {resp.status} {answer.get('error', {}).get('type')}")
            except Exception as exc:  # counted, never fatal: a benchmark reports failures
                run.failed += 1
                kind = str(exc)[:60] or type(exc).__name__
                run.errors[kind] = run.errors.get(kind, 0) + 1
                answer = None
            run.latencies.append(time.perf_counter() - started)
            run.by_op.setdefault(url.rsplit("/", 1)[1], []).append(run.latencies[-1])
            return answer

        async def session(i: int) -> None:
            instance_id = f"{shape}-{i}-{time.monotonic_ns()}"
            created = await one(f"{base}/{tool}/create", {"instance_id": instance_id, "create_kwargs": {"identity": {}}}
                                if shape != "seed" else {"instance_id": instance_id, "identity": {}})
            if created is None:
                return
            at = created.get("worker_url", base) if shape == "nested" else base
            for _ in range(calls):
                await one(f"{at}/{tool}/execute", {"instance_id": instance_id, "step": 1} if shape == "seed"
                          else {"instance_id": instance_id, "parameters": {"step": 1}})
            await one(f"{at}/{tool}/release", {"instance_id": instance_id})

        await session(-1)  # warm up the connection and the route
        run.latencies.clear()
        run.by_op.clear()
        started = time.perf_counter()
        await asyncio.gather(*(session(i) for i in range(sessions)))
        run.wall = time.perf_counter() - started
    return run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=1024)
    parser.add_argument("--calls", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3, help="Alternations of baseline and each shape (the median is "
                        "reported: one run here moves by ±20%%).")
    parser.add_argument("--shapes", default="nested,seed", help="Comma-separated: nested, seed.")
    parser.add_argument("--echo-server", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.echo_server is not None:
        echo_server(args.echo_server)
        return 0

    tmp = Path(tempfile.mkdtemp(prefix="bench-toolserve-"))
    tools = tmp / "tools.yaml"
    tools.write_text(TOOL_YAML)
    token = "bench-token-0123456789"
    # a PYTHONPATH given runs first (an older checkout's bc-toolserve, for an A/B against this one)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [os.environ.get("PYTHONPATH"), str(ROOT)])),
           "BC_TOOLSERVE_TOKEN": token}
    procs = []

    def spawn(*argv: str) -> None:
        procs.append(subprocess.Popen([sys.executable, *argv], cwd=ROOT, env=env,
                                      stdout=subprocess.DEVNULL, stderr=open(tmp / f"p{len(procs)}.log", "wb")))

    try:
        echo_port = free_port()
        spawn(str(Path(__file__).resolve()), "--echo-server", str(echo_port))
        echo_url = f"http://127.0.0.1:{echo_port}"
        master_port = free_port()
        spawn("-m", "bc_toolserve", "master", "--port", str(master_port), "--expect-workers", "2")
        master_url = f"http://127.0.0.1:{master_port}"
        for i in range(2):
            spawn("-m", "bc_toolserve", "worker", "--master-url", master_url, "--tools", str(tools),
                  "--worker-id", f"bench-{i}")
        wait_http(f"{master_url}/health")  # 200 once both workers registered (503 `starting` before)
        wait_http(f"{echo_url}/health", ok_status=404)
        shapes = args.shapes.split(",")
        print(f"bench toolserve: {args.sessions} concurrent sessions x (create + {args.calls} execute + release), "
              f"1 master + 2 workers, loopback, {os.cpu_count()} CPUs, load average "
              f"{os.getloadavg()[0]:.1f} at start; one aiohttp session, unlimited connector; runs alternate "
              f"with the echo baseline", file=sys.stderr)
        results: dict[str, list[tuple[Run, Run]]] = {shape: [] for shape in shapes}
        names = {"client": os.getpid(), "echo": procs[0].pid, "master": procs[1].pid,
                 **{f"worker{i}": proc.pid for i, proc in enumerate(procs[2:])}}

        def measured(shape: str, url: str, auth: str | None) -> Run:
            before = {name: cpu_seconds(pid) for name, pid in names.items()}
            run = asyncio.run(load(shape, url, args.sessions, args.calls, auth))
            calls = len(run.latencies) + 12  # and the warm-up session
            for name, pid in names.items():
                used = cpu_seconds(pid) - before[name]
                if used > 0.02:  # processes that took part (not the idle ones' heartbeats)
                    run.cpu[name] = used / calls * 1e6
            return run

        for _ in range(args.rounds):
            for shape in shapes:
                echo = measured("echo", echo_url, None)
                served = measured(shape, master_url, token)
                print(echo.line(), file=sys.stderr)
                print(served.line(), file=sys.stderr)
                results[shape].append((echo, served))
        failed = 0
        for shape, pairs in results.items():
            ratios = sorted(served.rate / echo.rate for echo, served in pairs)
            latencies = [t for _, served in pairs for t in served.latencies]
            total = len(latencies)
            errors = sum(served.failed for _, served in pairs)
            failed += errors
            echo_latencies = [t for echo, _ in pairs for t in echo.latencies]
            cpu = {name: sorted(run.cpu.get(name, 0.0) for _, run in pairs)[len(pairs) // 2]
                   for name in pairs[0][1].cpu}
            echo_cpu = {name: sorted(echo.cpu.get(name, 0.0) for echo, _ in pairs)[len(pairs) // 2]
                        for name in pairs[0][0].cpu}
            print(f"{shape}: ratio toolserve/echo calls/s {ratios[len(ratios) // 2]:.2f} (runs: "
                  f"{', '.join(f'{r:.2f}' for r in ratios)})   success {(total - errors) / total:.2%}   "
                  f"p99 {percentile(latencies, 0.99):.3f} s (echo {percentile(echo_latencies, 0.99):.3f} s, "
                  f"{percentile(latencies, 0.99) / percentile(echo_latencies, 0.99):.2f}x)   "
                  f"max {max(latencies):.3f} s (echo {max(echo_latencies):.3f} s)\n"
                  f"{'':>8}median CPU per call: " + ", ".join(f"{k} {v:.0f} µs" for k, v in cpu.items() if v >= 1)
                  + "; echo run: " + ", ".join(f"{k} {v:.0f} µs" for k, v in echo_cpu.items() if v >= 1))
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
