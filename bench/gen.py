"""bc-gen throughput as ratios to a bare loop that builds the same dicts and orjson-dumps them.

    python bench/gen.py [--rows 200000]
Prints rows/s for: bare loop, bc-gen noop, bc-gen arithmetic (in-process generate(); both sides write their
lines to the same buffered /dev/null stream, as the CLI writes stdout), and -j 2 vs -j 1 (subprocess, arithmetic).
"""
from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import orjson

from bc_common.registry import get_bootcamp
from bc_common.tasks import RowSpec, TaskFactory
from bc_gen.generate import generate


def spec_for(name: str) -> RowSpec:
    bc = get_bootcamp(name)
    cls = bc.generator
    return RowSpec(bootcamp=bc.name, generator_class=f"{cls.__module__}.{cls.__qualname__}", params={},
                   split="train", base_seed=0, tools=bc.tool_specs(), interaction=bc.interaction_spec())


def bare_loop(n: int, sample: dict) -> float:
    """Build rows shaped like `sample` (fresh dicts each time) and dump them: the limit.

    For noop the rows have the same contents too (a fresh random token, its prompt, a fresh id), drawn from one
    global RNG: everything but per-record seeding and deduplication. For arithmetic the identity is the sample's
    (drawing expressions is the bootcamp's own work, not the harness's)."""
    identity = sample["reward_model"]["ground_truth"]
    extra = sample["extra_info"]
    noop = extra["bootcamp"] == "noop"
    draw = random.Random(0).getrandbits
    start = time.perf_counter()
    out = open(os.devnull, "wb", buffering=1 << 20)  # the same sink as ours: bc-gen writes a stream
    for i in range(n):
        if noop:
            token = f"{draw(64):016x}"
            ident = {"token": token}
            prompt = f"Reverse the string {token} and reply with it as <answer>...</answer>."
            row_id = f"noop-{draw(64):016x}"
        else:
            ident, prompt, row_id = dict(identity), sample["prompt"][0]["content"], sample["id"]
        row = {"id": row_id, "data_source": sample["data_source"], "agent_name": sample["agent_name"],
               "prompt": [{"role": "user", "content": prompt}],
               "reward_model": {"style": "rule", "ground_truth": ident},
               "extra_info": {"split": "train", "index": i, "generator_name": "default", "bootcamp": extra["bootcamp"],
                              "seed": 0, "config_hash": extra["config_hash"],
                              "tools_kwargs": {k: {"create_kwargs": {"identity": ident}} for k in extra["tools_kwargs"]},
                              "need_tools_kwargs": extra["need_tools_kwargs"],
                              "interaction_kwargs": ({"name": extra["interaction_kwargs"]["name"], "identity": ident}
                                                     if extra["interaction_kwargs"] else {})}}
        out.write(orjson.dumps(row, option=orjson.OPT_APPEND_NEWLINE))
    out.close()
    return n / (time.perf_counter() - start)


def ours(name: str, n: int) -> float:
    spec = spec_for(name)
    start = time.perf_counter()
    with open(os.devnull, "wb", buffering=1 << 20) as out:
        count = 0
        for line in generate(spec, range(n)):
            out.write(line)
            count += 1
    assert count == n
    return n / (time.perf_counter() - start)


def cli(n: int, jobs: int) -> float:
    exe = Path(sys.executable).parent / "bc-gen"
    start = time.perf_counter()
    with open("/dev/null", "wb") as sink:
        subprocess.run([str(exe), "arithmetic", "-n", str(n), "-j", str(jobs)], stdout=sink, stderr=subprocess.DEVNULL,
                       check=True)
    return n / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=200_000)
    n = ap.parse_args().rows
    for name in ("noop", "arithmetic"):
        sample = orjson.loads(TaskFactory(spec_for(name)).row(0)[1])
        base = got = 0.0
        for _ in range(3):  # interleaved best-of-3: robust to a noisy neighbour
            base = max(base, bare_loop(n, sample))
            got = max(got, ours(name, n))
        print(f"{name:<10} bare loop {base:>9,.0f} rows/s | bc-gen {got:>9,.0f} rows/s | ratio {got / base:.2f}")
    j1, j2 = cli(n, 1), cli(n, 2)
    print(f"arithmetic CLI {n} rows: -j 1 {j1:,.0f} rows/s, -j 2 {j2:,.0f} rows/s | speedup {j2 / j1:.2f}x")


if __name__ == "__main__":
    main()
