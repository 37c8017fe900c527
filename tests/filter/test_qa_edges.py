"""bc-filter edge cases found in QA: byte order marks, output folders, Ctrl-C, stats order, wide integers."""
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import orjson
import pytest

from bc_common.jsonl import dumps, loads

from .rows import eval_run, task, trajectory, write_jsonl

BC_FILTER = str(Path(sys.executable).with_name("bc-filter"))


def run(*args, stdin: bytes = b""):
    return subprocess.run([BC_FILTER, *map(str, args)], input=stdin, capture_output=True, timeout=60)


@pytest.mark.parametrize("flags", [["--min-score", "0"], ["--best-per-task"], ["--to", "sft"]])
def test_a_byte_order_mark_is_accepted_on_every_path(tmp_path, flags):
    rows = eval_run(n_tasks=2, samples=1)
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + b"".join(orjson.dumps(r) + b"\r\n" for r in rows))
    proc = run(*flags, path)
    assert proc.returncode == 0, proc.stderr.decode()
    out = proc.stdout.splitlines()
    assert len(out) == 2 and not proc.stdout.startswith(b"\xef\xbb\xbf")
    if flags[0] != "--to":  # pass-through: the input line's bytes, ending normalised to "\n"
        assert out == [orjson.dumps(r) for r in rows] and b"\r" not in proc.stdout


def test_output_folder_is_a_usage_error(tmp_path):
    write_jsonl(tmp_path / "t.jsonl", eval_run(n_tasks=1, samples=1))
    proc = run("-o", tmp_path, tmp_path / "t.jsonl")
    assert proc.returncode == 2 and b"is a directory" in proc.stderr and b"Traceback" not in proc.stderr


def test_ctrl_c_exits_130_and_publishes_nothing(tmp_path):
    out = tmp_path / "out.jsonl"
    # as in a terminal: a shell without job control starts background jobs with SIGINT ignored, and Python
    # (rightly) keeps an inherited SIG_IGN; the user's Ctrl-C reaches a process whose SIGINT is the default
    proc = subprocess.Popen([BC_FILTER, "--best-per-task", "-o", str(out)], stdin=subprocess.PIPE,
                            stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    proc.stdin.write(orjson.dumps(eval_run(n_tasks=1, samples=1)[0]) + b"\n")
    proc.stdin.flush()
    deadline = time.monotonic() + 60  # wait until it runs (its temp output exists), not a fixed sleep
    while not list(tmp_path.iterdir()) and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    time.sleep(0.5)  # settled in the blocking read of stdin
    assert proc.poll() is None, proc.stderr.read().decode()
    proc.send_signal(signal.SIGINT)
    time.sleep(0.2)  # stdin stays open until the signal has been taken (closing it would let the run finish)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and b"interrupted" in err and b"Traceback" not in err, (proc.returncode, err)
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_stats_list_transforms_in_pipeline_order(tmp_path):
    write_jsonl(tmp_path / "t.jsonl", eval_run(n_tasks=3, samples=2))
    proc = run("--expand-prefixes", "--to", "sft", "--stats", tmp_path / "t.jsonl")
    err = proc.stderr.decode()
    assert proc.returncode == 0 and err.index("expand-prefixes:") < err.index("to sft:")
    assert "rows in: 6 " in err and "kept: 6 " in err and "rows out: 12" in err


def test_reshaped_rows_keep_wide_integers_exact(tmp_path):
    big = 123456789012345678901234567890
    t = task(0)
    t["reward_model"]["ground_truth"]["expected_result"] = big
    (tmp_path / "t.jsonl").write_bytes(dumps(trajectory(t)))
    assert b"%d" % big in (tmp_path / "t.jsonl").read_bytes()
    proc = run("--to", "task", tmp_path / "t.jsonl")
    assert proc.returncode == 0, proc.stderr.decode()
    assert loads(proc.stdout)["reward_model"]["ground_truth"]["expected_result"] == big


@pytest.mark.parametrize("args", [["--min-score", "0.5"], ["--min-score", "0.5", "--to", "sft"]],
                         ids=["fast-path", "transform"])
@pytest.mark.parametrize("unbuffered", ["1", ""], ids=["PYTHONUNBUFFERED", "buffered"])
def test_a_slow_streams_rows_come_out_while_its_input_is_still_open(args, unbuffered):
    """Output goes out in joined batches (one write each, even on an unbuffered stdout), but a row kept after a
    pause is written at once: `bc-eval | bc-filter | ...` sees rows as they finish, not at the end."""
    rows = [orjson.dumps(trajectory(task(i), score=1.0)) + b"\n" for i in range(3)]
    env = {**os.environ, "PYTHONUNBUFFERED": unbuffered}
    proc = subprocess.Popen([BC_FILTER, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=env)
    try:
        for line in rows:
            time.sleep(0.2)  # a pause longer than the batch's wait
            proc.stdin.write(line)
            proc.stdin.flush()
            ready, _, _ = select.select([proc.stdout], [], [], 30)
            assert ready, "no output while the input is open"
            assert loads(proc.stdout.readline())["messages"]
        proc.stdin.close()
        assert proc.stdout.read() == b"" and proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
