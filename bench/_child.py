"""Run a command as a child of a small launcher process and read its own usage (wait4), for the benchmarks.

    wall, cpu, peak_mb, out, err, code = run_child(["bc-report", "traj.jsonl"])

A child forked straight from a large benchmark process would count that process's pages in its peak (ru_maxrss
keeps the pre-exec high-water mark): the launcher is a fresh interpreter of a few MB, so the peak is the command's.
"""
from __future__ import annotations

import subprocess
import sys
import tempfile
import time

LAUNCH = """
import os, subprocess, sys
proc = subprocess.Popen(sys.argv[2:])
_, status, usage = os.wait4(proc.pid, 0)
with open(sys.argv[1], "w") as fh:
    fh.write(f"{usage.ru_utime + usage.ru_stime} {usage.ru_maxrss} {os.waitstatus_to_exitcode(status)}")
"""


def run_child(cmd: list[str]) -> tuple[float, float, float, bytes, bytes, int]:
    """Run `cmd`: (wall s, CPU s, peak MB, stdout, stderr, exit code). CPU time (user + sys) is the steadier figure
    when the machine is shared."""
    started = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile("r") as report:
        subprocess.run([sys.executable, "-c", LAUNCH, report.name, *cmd], stdout=out, stderr=err, check=True)
        wall = time.perf_counter() - started
        cpu, maxrss, code = report.read().split()
        out.seek(0)
        err.seek(0)
        return wall, float(cpu), int(maxrss) / 1024, out.read(), err.read(), int(code)
