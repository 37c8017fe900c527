"""Worker pools (bc_common/workers.py): a parent killed with SIGKILL takes its workers with it, and Ctrl-C is the
parent's to handle (no traceback from each worker)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import orjson
import pytest

from bc_common.workers import fork_pool, stop

from ..filter.rows import task, trajectory

BIN = Path(sys.executable).parent
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")


def _children(pid: int) -> list[int]:
    """Live (not zombie) processes whose parent is `pid`, from /proc."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()  # after "pid (comm) ": state, ppid, ...
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(entry))
    return found


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2:].split()[0] != "Z"


def _kill_parent_and_watch(cmd: list[str], stdin=None) -> None:
    proc = subprocess.Popen(cmd, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        workers: list[int] = []
        while len(workers) < 2 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.02)
            workers = _children(proc.pid)
        assert len(workers) >= 2, "the workers never started"
        proc.kill()
        proc.wait(timeout=30)
        deadline = time.monotonic() + 10
        while any(map(_alive, workers)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(map(_alive, workers)), "workers outlived their killed parent"
    finally:
        proc.kill()
        proc.wait(timeout=30)


def test_bc_gen_workers_end_with_their_killed_parent():
    _kill_parent_and_watch([str(BIN / "bc-gen"), "arithmetic", "-n", "5000000", "-j", "2"])


def test_bc_filter_workers_end_with_their_killed_parent(tmp_path):
    from bc_filter import parallel

    row = orjson.dumps(trajectory(task(1), score=1.0)) + b"\n"
    path = tmp_path / "big.jsonl"
    with path.open("wb") as fh:
        fh.write(row * ((parallel.PARALLEL_MIN * 3) // len(row)))
    _kill_parent_and_watch([str(BIN / "bc-filter"), "--min-score", "0.5", "-j", "2", str(path)])


def _pid() -> int:
    return os.getpid()


def _sleep_then_pid(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def test_workers_leave_ctrl_c_to_the_parent():
    """A SIGINT sent to a worker (as a terminal sends it to the whole group) does not end it."""
    pool = fork_pool(1)
    try:
        worker = pool.submit(_pid).result()
        later = pool.submit(_sleep_then_pid, 0.3)
        time.sleep(0.1)
        os.kill(worker, signal.SIGINT)
        assert later.result(timeout=30) == worker
    finally:
        pool.shutdown()


def test_stop_does_not_wait_for_the_work_in_flight():
    """An error in the parent while workers are busy with slow work: `stop` ends them at once (shutdown would wait
    for the work, since the workers ignore Ctrl-C)."""
    pool = fork_pool(2)
    futures = [pool.submit(_sleep_then_pid, 30) for _ in range(4)]
    time.sleep(0.3)  # both workers busy
    workers = list(pool._processes)
    started = time.monotonic()
    stop(pool)
    assert time.monotonic() - started < 10
    assert not any(map(_alive, workers))
    assert all(f.done() for f in futures)
