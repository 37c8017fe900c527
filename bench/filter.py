"""Benchmark: `bc-filter --min-score 0.9` against jq and against a bare orjson loads+dumps loop.

    python bench/filter.py [-n 200000] [--repeat 2] [--rows TRAJECTORIES.jsonl]

Synthetic trajectories (~2.4 KB each) go to a temp file; each command reads it and writes its selection to
a file (best of --repeat interleaved runs, process start included). Figures are rows/s, by wall time and
by the child's CPU time (user+sys; steady when the machine is shared), and ratios to the baselines
measured in the same run; the outputs are checked to hold the same rows. A second bc-filter run ANDs
predicates on several top-level fields (score, status, bootcamp, turns, error) and is checked against
the same selection made in Python. `--rows` takes real trajectories (bc-eval output) instead, repeated up to -n.
bc-filter runs as a user runs it (stdin redirected from the file: worker processes, one per core); `-j 1` is
measured too (one process), and the CPU column shows what the workers cost on top.
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson

BARE_LOOP = """
import sys, orjson
with open(sys.argv[1], "rb") as src, open(sys.argv[2], "wb") as out:
    for line in src:
        row = orjson.loads(line)
        if row["score"] >= 0.9:
            out.write(orjson.dumps(row) + b"\\n")
"""

# the issue's orientation baseline: loads and dumps every line, no selection
BARE_ALL = """
import sys, orjson
with open(sys.argv[1], "rb") as src, open(sys.argv[2], "wb") as out:
    for line in src:
        out.write(orjson.dumps(orjson.loads(line)) + b"\\n")
"""


# predicates on top-level fields, ANDed; keeps_many is the same selection in Python
MANY = ["--min-score", "0.5", "--status", "completed,max_turns", "--bootcamp", "arithmetic", "--max-turns", "16",
        "--where", "error=null"]


def keeps_many(row: dict) -> bool:
    return (row["score"] >= 0.5 and row["status"] in ("completed", "max_turns")
            and row["input"]["extra_info"]["bootcamp"] == "arithmetic" and row["num_turns"]["assistant"] <= 16
            and row.get("error") is None)


def trajectory(i: int, rng: random.Random) -> dict:
    """One synthetic bc-eval trajectory (4 samples per task) of about 2 KB."""
    a, b, c = rng.randint(1, 99), rng.randint(1, 99), rng.randint(1, 99)
    expr, answer = f"{a} * ({b} + {c})", a * (b + c)
    tid = f"arithmetic-{i // 4:016x}"
    identity = {"expression": expr, "expected_result": str(answer), "tolerance": "1e-6"}
    task = {"id": tid, "data_source": "bootcamp/arithmetic", "agent_name": "bc_agent",
            "prompt": [{"role": "user", "content": f"Compute {expr}. You may call the calculate tool. "
                                                   "Answer as ```json {\"result\": ...}```"}],
            "reward_model": {"style": "rule", "ground_truth": identity},
            "extra_info": {"split": "train", "index": i // 4, "generator_name": "easy", "bootcamp": "arithmetic",
                           "seed": 7, "config_hash": "ab12cd34ef56",
                           "tools_kwargs": {"calculate": {"create_kwargs": {"identity": identity}}},
                           "need_tools_kwargs": True,
                           "interaction_kwargs": {"name": "arithmetic_feedback", "identity": identity}}}
    score = rng.choice([0.0, 0.0, 0.5, 0.95, 1.0, 1.0])
    status = rng.choice(["completed"] * 4 + ["max_turns", "error"])
    error = {"type": "model_error", "message": "HTTP 500 from the model server"} if status == "error" else None
    given = answer if score >= 1.0 else answer + rng.randint(1, 9)
    messages = task["prompt"] + [
        {"role": "assistant", "content": "Let me use the tool.",
         "tool_calls": [{"id": "call_0", "type": "function",
                         "function": {"name": "calculate", "arguments": orjson.dumps({"expression": expr}).decode()}}]},
        {"role": "tool", "tool_call_id": "call_0", "content": str(answer)},
        {"role": "assistant", "content": f"The result is:\n```json\n{{\"result\": {given}}}\n```"}]
    return {"id": f"{tid}#{i % 4}", "task_id": tid, "input": task, "model": "builtin:noisy", "sample": i % 4,
            "messages": messages,
            "tools": [{"type": "function", "function": {
                "name": "calculate", "description": "Evaluate an arithmetic expression exactly.",
                "parameters": {"type": "object", "properties": {"expression": {"type": "string"}},
                               "required": ["expression"]}}}],
            "turns": [{"type": "model", "index": 0, "latency_s": 0.012, "finish_reason": "tool_calls", "error": None,
                       "usage": {"prompt_tokens": 61, "completion_tokens": 24, "total_tokens": 85}},
                      {"type": "tool", "name": "calculate", "call_id": "call_0", "latency_s": 0.0004, "reward": 0.0,
                       "metrics": {}, "error": None},
                      {"type": "model", "index": 1, "latency_s": 0.011, "finish_reason": "stop", "error": None,
                       "usage": {"prompt_tokens": 97, "completion_tokens": 18, "total_tokens": 115}}],
            "score": score, "reward": {"score": score, "step_rewards": [0.0], "tool_rewards": {"calculate": 0.0},
                                       "turn_scores": []},
            "status": status, "error": error, "success": score >= 1.0 and status == "completed",
            "usage": {"prompt_tokens": 158, "completion_tokens": 42, "total_tokens": 200},
            "num_turns": {"assistant": 2, "user": 1, "tool_calls": 1},
            "timing": {"started_at": "2025-01-01T00:00:00+00:00", "wall_s": 0.03, "model_s": 0.023, "tool_s": 0.0004}}


def ensure_jq() -> str:
    jq = shutil.which("jq") or ("/usr/bin/jq" if os.path.exists("/usr/bin/jq") else None)
    if jq is None:
        subprocess.run(["apt-get", "install", "-y", "jq"], check=True, stdout=subprocess.DEVNULL)
        jq = shutil.which("jq")
    if jq is None:
        sys.exit("jq is missing and could not be installed")
    return jq


def timed(cmd: list[str], out: Path, stdin: Path | None = None) -> tuple[float, float]:
    """(wall seconds, CPU seconds user+sys) of one run of cmd with stdout to `out`."""
    with open(out, "wb") as fh, open(stdin or os.devnull, "rb") as src:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=fh, stdin=src)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.exit(f"{cmd[0]} failed with exit {proc.returncode}")
    return wall, usage.ru_utime + usage.ru_stime


def count_lines(path: Path) -> int:
    with open(path, "rb") as fh:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: fh.read(1 << 20), b""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rows", help="a JSONL file of trajectories to repeat instead of synthetic ones")
    args = parser.parse_args()
    jq = ensure_jq()
    bc_filter = str(Path(sys.executable).with_name("bc-filter"))
    with tempfile.TemporaryDirectory(prefix="bench-filter-") as tmp:
        data = Path(tmp) / "traj.jsonl"
        rng = random.Random(20240601)
        real = Path(args.rows).read_bytes().splitlines(keepends=True) if args.rows else []
        with open(data, "wb") as fh:
            for i in range(args.n):
                fh.write(real[i % len(real)] if real else
                         orjson.dumps(trajectory(i, rng), option=orjson.OPT_APPEND_NEWLINE))
        size = data.stat().st_size
        print(f"{args.n} trajectories, {size / args.n:.0f} B each")
        outs = {name: Path(tmp) / f"{name}.jsonl" for name in ("jq", "bare", "bare_all", "bc", "bc1", "bc_many")}
        cmds = {"jq": ([jq, "-c", "select(.score >= 0.9)", str(data)], outs["jq"], None),
                "bare": ([sys.executable, "-c", BARE_LOOP, str(data), str(outs["bare"])], Path(os.devnull), None),
                "bare_all": ([sys.executable, "-c", BARE_ALL, str(data), str(outs["bare_all"])], Path(os.devnull), None),
                "bc": ([bc_filter, "--min-score", "0.9"], outs["bc"], data),
                "bc1": ([bc_filter, "-j", "1", "--min-score", "0.9"], outs["bc1"], data),
                "bc_many": ([bc_filter, *MANY], outs["bc_many"], data)}
        best = {name: (float("inf"), float("inf")) for name in cmds}
        for _ in range(args.repeat):  # interleaved, best of each: the machine may be shared
            for name, (cmd, out, stdin) in cmds.items():
                wall, cpu = timed(cmd, out, stdin)
                best[name] = (min(best[name][0], wall), min(best[name][1], cpu))
        kept = {name: count_lines(path) for name, path in outs.items() if name not in ("bare_all", "bc_many")}
        if len(set(kept.values())) != 1:
            sys.exit(f"outputs disagree: {kept}")
        with open(data, "rb") as fh:
            many = sum(1 for line in fh if keeps_many(orjson.loads(line)))
        if count_lines(outs["bc_many"]) != many:
            sys.exit(f"bc-filter {' '.join(MANY)} kept {count_lines(outs['bc_many'])} rows, not {many}")
        kept["bc_many"] = many
    print(f"kept {kept['bc']} of {args.n} rows")
    print(f"kept {kept['bc_many']} rows with {' '.join(MANY)}")
    labels = {"jq": "jq -c 'select(.score >= 0.9)'", "bare": "bare loop: loads, select, dumps",
              "bare_all": "bare loop: loads+dumps every row",
              "bc": "bc-filter --min-score 0.9", "bc1": "bc-filter -j 1 --min-score 0.9",
              "bc_many": "bc-filter, 5 predicates"}
    print(f"{'':34}{'rows/s (wall)':>15}{'rows/s (CPU)':>15}   ({len(os.sched_getaffinity(0))} cores)")
    for name, label in labels.items():
        print(f"{label:34}{args.n / best[name][0]:>15,.0f}{args.n / best[name][1]:>15,.0f}")
    for run in ("bc", "bc1", "bc_many"):
        for base, target in (("jq", "20x"), ("bare", "-"), ("bare_all", "3x")):
            wall = best[base][0] / best[run][0]
            cpu = best[base][1] / best[run][1]
            print(f"{run:<7} / {base:<8} = {wall:5.2f}x wall, {cpu:5.2f}x CPU   (target >= {target})")


if __name__ == "__main__":
    main()
