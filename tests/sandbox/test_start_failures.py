"""A sandboxed run the harness cannot start (no descriptor, no process) is retried, then SandboxFailed: never a
result of the code, so a verifier never turns it into a score of 0 and the rollout loop records an error row.

The failures are real: the process's soft open-file limit is lowered to what it holds, so the next pipe fails with
EMFILE (and restored in every case)."""
from __future__ import annotations

import asyncio
import contextlib
import os
import resource
import subprocess
import sys
import textwrap
import tracemalloc  # noqa: F401  (pytest imports it to report an unraisable exception: not while descriptors are spent)

import pytest

from bc_common.sandbox import Limits, SandboxFailed, run_blocking, sandbox_for

PY = ["python3", "-c", "print(6 * 7)"]
# a loop that could not make its self-pipe raises in its own __del__ (CPython): reported by pytest, harmless
HALF_MADE_LOOP = pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")


def open_now() -> int:
    return len(os.listdir("/proc/self/fd"))


@contextlib.contextmanager
def descriptors_spent():
    """No descriptor left: the soft open-file limit lowered near what the process holds, and every slot under it
    taken (counting alone is not exact: the count's own listing holds one, and another thread or the collector may
    close some), so the next opens fail with EMFILE."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (open_now() + 4, hard))
    held: list[int] = []
    try:
        with contextlib.suppress(OSError):
            while True:
                held.append(os.open(os.devnull, os.O_RDONLY))
        yield
    finally:
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_run_that_cannot_start_is_sandbox_failed_naming_the_limit(ws):
    box = sandbox_for()

    async def go():
        with descriptors_spent():
            return await box.run(PY, workspace=ws, limits=Limits(wall_s=10))

    with pytest.raises(SandboxFailed, match=r"after 4 tries: .*Too many open files.*ulimit -n"):
        asyncio.run(go())
    assert box.run_blocking(PY, workspace=ws, limits=Limits(wall_s=10)).stdout == "42\n"  # nothing left broken


def test_a_start_failure_that_passes_is_retried_and_the_run_goes_on(ws):
    box = sandbox_for()

    async def go():
        with descriptors_spent():
            soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
            loop = asyncio.get_running_loop()
            loop.call_later(0.1, resource.setrlimit, resource.RLIMIT_NOFILE, (soft + 64, hard))  # the pressure passes
            return await box.run(PY, workspace=ws, limits=Limits(wall_s=10))

    result = asyncio.run(go())
    assert result.ok and result.stdout == "42\n"


@HALF_MADE_LOOP
def test_no_event_loop_for_a_blocking_run_is_sandbox_failed_too(ws):
    box = sandbox_for()
    with descriptors_spent(), pytest.raises(SandboxFailed, match="no event loop for a sandboxed run"):
        run_blocking(box.run(PY, workspace=ws, limits=Limits(wall_s=10)))


def test_limits_above_the_harness_hard_limit_are_lowered_not_a_failure(tmp_path):
    """A harness started under a hard open-file limit below the run's `open_files` (256) still runs code: the
    child takes the lower limit (before: every run failed in preexec_fn, and each verifier scored 0)."""
    script = textwrap.dedent("""
        import resource
        from bc_common.sandbox import Limits, sandbox_for, workspace
        resource.setrlimit(resource.RLIMIT_NOFILE, (100, 100))
        resource.setrlimit(resource.RLIMIT_CPU, (60, 60))
        with workspace() as ws:
            r = sandbox_for().run_blocking(["python3", "-c", "import resource; print(resource.getrlimit("
                                           "resource.RLIMIT_NOFILE)[0], resource.getrlimit(resource.RLIMIT_CPU)[0])"],
                                           workspace=ws, limits=Limits(cpu_s=90, open_files=256, wall_s=20))
        print(r.exit_code, r.stdout.strip())
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "0 100 60"


@HALF_MADE_LOOP
def test_a_grader_that_cannot_run_makes_an_error_row_not_a_score_of_zero():
    """The verifier runs the answer in the sandbox; with no descriptor left it cannot, and the rollout loop
    records `grader_unavailable` (bc-eval --resume plays such rows again) instead of completing with 0."""
    from bc_common.builtin_model import reference_trajectory
    from bc_common.environment import Environments
    from bc_common.tasks import TaskSet
    from bootcamps.code_function.reward import hidden_score

    row = TaskSet("code_function", seed=3)[1]
    env = Environments().get(row["data_source"])
    # played once first: the policy reads its family's source (inspect) and every lazy import happens, which would
    # fail with no descriptor left; the verdict the verifier caches is then dropped, so the grader must run again
    assert asyncio.run(reference_trajectory(row, env))["score"] == 1.0
    hidden_score.cache_clear()

    async def starved():
        with descriptors_spent():
            return await reference_trajectory(row, env)

    played = asyncio.run(starved())
    assert played["status"] == "error" and played["success"] is False, played["error"]
    assert played["error"]["type"] == "grader_unavailable"
    assert "ulimit -n" in played["error"]["message"]
    assert asyncio.run(reference_trajectory(row, env))["score"] == 1.0  # the same row, graded when it can be
