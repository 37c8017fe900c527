"""Shared pieces of the sandbox tests: skip where bubblewrap cannot run, run a snippet, scan /proc."""
from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from bc_common.sandbox import Limits, RunResult, SandboxUnavailable, python_executable, sandbox_for

WALL_20 = Limits(wall_s=20)


def bubblewrap_or_skip():
    """The bubblewrap sandbox, or a skip that says why it cannot run here (CI installs it: .ci/run)."""
    try:
        return sandbox_for("bubblewrap")
    except SandboxUnavailable as exc:
        pytest.skip(f"bubblewrap cannot run here: {exc}")


def run_python(code: str, workspace: Path, limits: Limits = WALL_20, **kwargs) -> RunResult:
    """Run Python source in the bubblewrap sandbox with `workspace` as /workspace."""
    box = bubblewrap_or_skip()
    return asyncio.run(box.run([python_executable(), "-I", "-c", code], workspace=workspace, limits=limits,
                               **kwargs))


def processes_with(marker: str) -> list[int]:
    """Pids of live processes whose command line holds `marker` (a /proc scan, independent of the runtime's)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
            state = Path(f"/proc/{entry}/stat").read_text().rpartition(")")[2].split()[0]
        except (OSError, IndexError):
            continue
        if marker.encode() in cmdline and state not in ("Z", "X"):
            found.append(int(entry))
    return found
