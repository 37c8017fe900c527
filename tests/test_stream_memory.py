"""Constant memory on an unbounded stdin stream (issue 29): rows are fed to a tool's stdin as fast as it takes
them, and its resident memory is sampled; what it holds at the end may not exceed what it held early on by more
than a few megabytes. Rows are built here (not read from disk), so the tools see a stream of any length.

bc-gen writes rows and reads none (its deduplication remembers every identity: `--no-dedup` for unbounded runs);
bc-report keeps each task's tallies and ~90 bytes of columns a trajectory by design (per-task statistics and
page-wide plots): its test bounds that growth. bc-train reads its input more
than once (stdin is copied to a temp file), so its peak over the whole run is what is compared."""
from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest

BIN = Path(sys.executable).parent
GROWTH_MB = 12  # what the late samples may exceed the early one by (allocator noise, not per-row state)


def rss_mb(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except FileNotFoundError:
        return None
    return None


def trajectories(n: int, samples: int = 1) -> Iterator[bytes]:
    row = {"id": "", "task_id": "", "input": {"id": "", "data_source": "bootcamp/arithmetic",
                                              "prompt": [{"role": "user", "content": "Compute 1 + 1."}],
                                              "reward_model": {"style": "rule", "ground_truth": {}},
                                              "extra_info": {"bootcamp": "arithmetic", "generator_name": "easy"}},
           "messages": [{"role": "user", "content": "Compute 1 + 1."}, {"role": "assistant", "content": "2"}],
           "score": 0.0, "status": "completed"}
    for i in range(n):
        task, row["sample"] = f"t{i // samples}", i % samples
        row["id"], row["task_id"], row["input"]["id"] = f"{task}#{i % samples}", task, task
        row["score"] = (i % 10) / 10
        yield orjson.dumps(row) + b"\n"


def noop_tasks(n: int) -> Iterator[bytes]:
    """Task rows of the noop bootcamp (reverse a token), each with its own id."""
    for i in range(n):
        token = f"{i * 2654435761 % 2**64:016x}"
        yield orjson.dumps({
            "id": f"noop-{i:016x}", "data_source": "bootcamp/noop", "agent_name": "single_turn_agent",
            "prompt": [{"role": "user", "content": f"Reverse the string {token} and reply with it as "
                                                   "<answer>...</answer>."}],
            "reward_model": {"style": "rule", "ground_truth": {"token": token}},
            "extra_info": {"split": "train", "index": i, "generator_name": "default", "bootcamp": "noop"}}) + b"\n"


def feed_and_sample(cmd: list[str], rows: Iterator[bytes], n: int, checkpoints: int = 10) -> list[float]:
    """Feed `rows` to `cmd`'s stdin; RSS (MB) sampled after each n/checkpoints rows. The tool must exit 0."""
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err: list[bytes] = []
    reader = threading.Thread(target=lambda: err.append(proc.stderr.read()), daemon=True)
    reader.start()
    samples = []
    step = n // checkpoints
    try:
        for i, line in enumerate(rows, 1):
            proc.stdin.write(line)
            if i % step == 0:
                proc.stdin.flush()
                samples.append(rss_mb(proc.pid))
        proc.stdin.close()
        assert proc.wait(timeout=600) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        reader.join(timeout=10)
    assert None not in samples, (samples, b"".join(err)[-500:])
    return samples


def flat(samples: list[float]) -> bool:
    """The late samples stay within GROWTH_MB of the sample taken after the first tenth (start-up done)."""
    return max(samples[2:]) <= samples[1] + GROWTH_MB


@pytest.mark.parametrize("args", [["--min-score", "0.5"], ["--min-score", "0.5", "--stats"], ["--to", "sft"]],
                         ids=["filter", "stats", "sft"])
def test_bc_filter_holds_constant_memory_over_a_million_rows(args):
    n = 1_000_000
    samples = feed_and_sample([str(BIN / "bc-filter"), *args], trajectories(n), n)
    assert flat(samples), samples


def test_bc_eval_holds_constant_memory_as_trajectories_stream_through():
    """Its summary folds each task in once its samples are in; rows are written as they finish."""
    n = 60_000
    samples = feed_and_sample([str(BIN / "bc-eval"), "--model", "builtin:reference", "-c", "32", "--samples", "2"],
                              noop_tasks(n), n)
    assert flat(samples), samples


def test_bc_report_memory_follows_the_tasks_not_the_rows():
    """bc-report keeps each task's tallies (pass@k, paired comparison, the task bootstrap need them) and ~90 bytes
    of columns a row: a million rows of 125,000 tasks may grow it by ~90 MB, not the ~300 MB that a dict entry per
    (task, sample) cost."""
    n = 1_000_000
    samples = feed_and_sample([str(BIN / "bc-report"), "--format", "md", "-o", os.devnull], trajectories(n, 8), n)
    assert samples[-1] - samples[1] <= 140, samples


def peak_mb(cmd: list[str], rows: Iterator[bytes]) -> float:
    """Feed `rows` to `cmd`'s stdin; its peak resident memory over the whole run (MB, from wait4)."""
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err: list[bytes] = []
    reader = threading.Thread(target=lambda: err.append(proc.stderr.read()), daemon=True)
    reader.start()
    try:
        for line in rows:
            proc.stdin.write(line)
        proc.stdin.close()
        _, status, usage = os.wait4(proc.pid, 0)
    finally:
        if proc.poll() is None:
            proc.kill()
        reader.join(timeout=10)
    assert os.waitstatus_to_exitcode(status) == 0, b"".join(err)[-500:]
    return usage.ru_maxrss / 1024


def test_bc_train_peak_memory_does_not_grow_with_the_rows(tmp_path):
    """SFT rows on stdin: every pass (check and split, then writing train/val.parquet in row groups) holds a row
    group at most (4,096 rows), so 60,000 rows peak where 10,000 do (when it held every row: 174 and 391 MB)."""
    small = peak_mb([str(BIN / "bc-train"), "-o", str(tmp_path / "small")], trajectories(10_000))
    large = peak_mb([str(BIN / "bc-train"), "-o", str(tmp_path / "large")], trajectories(60_000))
    assert large <= small + GROWTH_MB, (small, large)
