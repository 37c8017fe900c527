"""Benchmark bc-eval's client side against baselines measured in the same run, on the same scripted server.

Baselines: (a) a bare asyncio loop of plain aiohttp + orjson POSTs making the same calls (the client-side limit),
(b) the same loop through the official `openai` SDK. The server runs in its own process.
  zero latency:   512 tasks x 2 model calls, -c 64  -> bc-eval calls/s as ratios to (a) and (b)
  latency-bound: 2048 tasks x 2 model calls, 50 ms per call, -c 256 -> wall time / ideal (0.8 s)
  --scale N:     N tasks x 2 model calls, 50 ms per call, -c 1000, `bc-eval` as a subprocess -> wall / ideal and
                 its peak RSS (from wait4), for N and N / 4 (RSS must not grow with the tasks)
Targets (issue 29): >= 0.8x loop (a) and >= 5x loop (b) at zero latency; latency-bound wall <= 1.2x ideal.
The code measured is what `import bc_eval` finds: PYTHONPATH=<old checkout>/bc-eval measures other code (A/B).

    python bench/eval.py [--part zero|latency] [--scale 100000]
"""
from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import aiohttp
import orjson
from _child import run_child

from bc_common.safe_eval import format_number, safe_eval
from bc_eval.client import RetryPolicy
from bc_eval.runner import EvalConfig, evaluate

EXPRESSION = "12 × 7 + 5"
SCRIPT = {"default": [
    {"tool_calls": [{"name": "calculate", "arguments": {"expression": EXPRESSION}}]},
    {"content": '```json\n{"result": 89}\n```'},
]}


def make_tasks(n: int, start: int = 0) -> list[dict]:
    identity = {"expression": EXPRESSION, "expected_result": format_number(safe_eval(EXPRESSION), 17),
                "tolerance": "1e-6"}
    return [{"id": f"bench-{i}", "data_source": "bootcamp/arithmetic",
             "prompt": [{"role": "user", "content": f"Task {i}: compute {EXPRESSION}."}],
             "reward_model": {"style": "rule", "ground_truth": identity},
             "extra_info": {"split": "test", "index": i, "generator_name": "bench",
                            "tools_kwargs": {"calculate": {"create_kwargs": {"identity": identity}}},
                            "need_tools_kwargs": True}} for i in range(start, start + n)]


TOOLS = [{"type": "function", "function": {"name": "calculate", "description": "Evaluate an expression.",
                                           "parameters": {"type": "object",
                                                          "properties": {"expression": {"type": "string"}},
                                                          "required": ["expression"]}}}]


@contextmanager
def server(delay: float):
    """The scripted server in a subprocess; yields its base URL."""
    with tempfile.NamedTemporaryFile("wb", suffix=".json", delete=False) as fh:
        fh.write(orjson.dumps(SCRIPT))
    proc = subprocess.Popen([sys.executable, "-m", "bc_eval.testing", "--script", fh.name, "--delay", str(delay),
                             "--engine", "aiohttp"],
                            stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        if not line.startswith("PORT "):
            raise RuntimeError("scripted server did not start")
        yield f"http://127.0.0.1:{int(line.split()[1])}/v1"
    finally:
        proc.terminate()
        proc.wait()
        os.unlink(fh.name)


def conversation(task: dict, reply: dict | None) -> list[dict]:
    messages = list(task["prompt"])
    if reply is not None:
        call = reply["choices"][0]["message"]["tool_calls"][0]
        messages += [{"role": "assistant", "content": "", "tool_calls": [call]},
                     {"role": "tool", "tool_call_id": call["id"], "content": "89"}]
    return messages


async def loop_aiohttp(url: str, tasks: list[dict], concurrency: int) -> None:
    """Baseline (a): the same two calls per task with plain aiohttp + orjson, nothing else."""
    connector = aiohttp.TCPConnector(limit=concurrency)
    async with aiohttp.ClientSession(connector=connector) as session:
        async def post(messages: list[dict]) -> dict:
            body = orjson.dumps({"model": "m", "messages": messages, "tools": TOOLS})
            async with session.post(url + "/chat/completions", data=body,
                                    headers={"Content-Type": "application/json"}) as resp:
                return orjson.loads(await resp.read())

        await _fan_out(tasks, concurrency, post)


async def loop_openai(url: str, tasks: list[dict], concurrency: int) -> None:
    """Baseline (b): the same two calls per task through the official openai SDK."""
    import httpx
    import openai

    client = openai.AsyncOpenAI(base_url=url, api_key="none", max_retries=0, http_client=httpx.AsyncClient(
        limits=httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)))

    async def post(messages: list[dict]) -> dict:
        return (await client.chat.completions.create(model="m", messages=messages, tools=TOOLS)).model_dump()

    try:
        await _fan_out(tasks, concurrency, post)
    finally:
        await client.close()


async def _fan_out(tasks: list[dict], concurrency: int, post) -> None:
    queue: asyncio.Queue = asyncio.Queue()
    for task in tasks:
        queue.put_nowait(task)

    async def worker() -> None:
        while not queue.empty():
            task = queue.get_nowait()
            first = await post(conversation(task, None))
            await post(conversation(task, first))

    await asyncio.gather(*(worker() for _ in range(concurrency)))


def run_bc_eval(url: str, tasks_file: Path, concurrency: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        summary = evaluate(EvalConfig(tasks=[str(tasks_file)], output=os.path.join(tmp, "out.jsonl"), model="m",
                                      base_url=url, concurrency=concurrency, retry=RetryPolicy(max_retries=0)))
    total = summary.report()["total"]
    if total["count"] != int(tasks_file.stem.split("-")[1]) or total["mean_score"] != 1.0:
        raise RuntimeError(f"bc-eval run went wrong: {total}")


def timed(fn, *args) -> float:
    started = time.perf_counter()
    fn(*args)
    return time.perf_counter() - started


def measure(url: str, tasks: list[dict], tasks_file: Path, concurrency: int, repeats: int,
            sdk: bool = True) -> dict[str, float]:
    """Best-of-`repeats` wall time of (a) and bc-eval, interleaved (the machine may be shared); (b) runs once,
    being an order of magnitude slower anyway (not at all without `sdk`)."""
    walls = {"b": timed(lambda: asyncio.run(loop_openai(url, tasks, concurrency))) if sdk else float("nan")}
    for _ in range(repeats):
        for name, fn in (("a", lambda: asyncio.run(loop_aiohttp(url, tasks, concurrency))),
                         ("bc-eval", lambda: run_bc_eval(url, tasks_file, concurrency))):
            walls[name] = min(walls.get(name, float("inf")), timed(fn))
    return walls


def scale(n: int, concurrency: int = 1000, delay: float = 0.05) -> None:
    """`bc-eval` on n and n / 4 tasks at -c `concurrency`: wall / ideal and peak RSS of the bc-eval process."""
    print(f"bench/eval.py --scale: bc-eval as a subprocess, {delay * 1000:.0f} ms per call, -c {concurrency}")
    with tempfile.TemporaryDirectory() as tmp, server(delay) as url:
        for count in (n // 4, n):
            tasks_file = Path(tmp) / f"tasks-{count}.jsonl"
            with tasks_file.open("wb") as fh:
                for start in range(0, count, 10_000):
                    rows = make_tasks(min(10_000, count - start), start)
                    fh.write(b"".join(orjson.dumps(t) + b"\n" for t in rows))
            command = [sys.executable, "-m", "bc_eval", str(tasks_file), "--model", "m", "--base-url", url,
                       "-c", str(concurrency), "--retries", "0", "-o", str(Path(tmp) / "out.jsonl")]
            # from a small launcher: this process holds the bare loop's tasks, and a child forked from it would
            # count them in its peak RSS
            wall, cpu, peak_mb, _, err, code = run_child(command)
            if code != 0:
                raise RuntimeError(f"bc-eval exited {code}: {err.decode()[-2000:]}")
            ideal = 2 * delay * count / concurrency
            bare = timed(asyncio.run, loop_aiohttp(url, make_tasks(count), concurrency))
            print(f"  {count} tasks: wall {wall:.1f} s, ideal {ideal:.1f} s: {wall / ideal:.2f}x   (target <= 1.2x; "
                  f"loop (a) {bare / ideal:.2f}x); peak RSS {peak_mb:.0f} MB; client CPU "
                  f"{cpu / (2 * count) * 1e6:.0f} us a call")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=("zero", "latency"), help="only this part")
    parser.add_argument("--scale", type=int, help="the -c 1000 run on this many tasks instead")
    parser.add_argument("--no-sdk", action="store_true", help="skip loop (b) (minutes on a loaded machine)")
    args = parser.parse_args()
    if args.scale:
        return scale(args.scale)
    with tempfile.TemporaryDirectory() as tmp:
        print("bench/eval.py: bc-eval client side vs baselines on the same scripted server (server in its own "
              "process)")
        if args.part != "latency":
            zero_latency(tmp, not args.no_sdk)
        if args.part != "zero":
            latency_bound(tmp, not args.no_sdk)


def zero_latency(tmp: str, sdk: bool) -> None:
    n, c = 512, 64
    tasks = make_tasks(n)
    tasks_file = Path(tmp) / f"tasks-{n}.jsonl"
    tasks_file.write_bytes(b"".join(orjson.dumps(t) + b"\n" for t in tasks))
    with server(0.0) as url:
        asyncio.run(loop_aiohttp(url, tasks[:64], 8))  # warm-up
        walls = measure(url, tasks, tasks_file, c, repeats=3, sdk=sdk)
    rate = {k: 2 * n / v for k, v in walls.items()}
    print(f"zero latency, {n} tasks x 2 calls, -c {c}:")
    print(f"  bc-eval / loop (a) aiohttp+orjson: {rate['bc-eval'] / rate['a']:.2f}x   (target >= 0.80x)")
    print(f"  bc-eval / loop (b) openai SDK:     {rate['bc-eval'] / rate['b']:.2f}x   (target >= 5x)")
    print(f"  loop (a) / loop (b):               {rate['a'] / rate['b']:.2f}x")
    print(f"  (absolute, this machine: a {rate['a']:.0f}, b {rate['b']:.0f}, "
          f"bc-eval {rate['bc-eval']:.0f} calls/s)")


def latency_bound(tmp: str, sdk: bool) -> None:
    n, c, delay = 2048, 256, 0.05
    tasks = make_tasks(n)
    tasks_file = Path(tmp) / f"tasks-{n}.jsonl"
    tasks_file.write_bytes(b"".join(orjson.dumps(t) + b"\n" for t in tasks))
    ideal = 2 * delay * n / c
    with server(delay) as url:
        walls = measure(url, tasks, tasks_file, c, repeats=2, sdk=sdk)
    print(f"latency-bound, {n} tasks x 2 calls, {delay * 1000:.0f} ms per call, -c {c} "
          f"(ideal {ideal:.2f} s):")
    print(f"  bc-eval wall / ideal:  {walls['bc-eval'] / ideal:.2f}x   (target <= 1.2x)")
    print(f"  loop (a) wall / ideal: {walls['a'] / ideal:.2f}x")
    print(f"  loop (b) wall / ideal: {walls['b'] / ideal:.2f}x")


if __name__ == "__main__":
    main()
