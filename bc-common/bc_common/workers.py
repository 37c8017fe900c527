"""Pools of worker processes that end with the process that started them.

    pool = fork_pool(2, initializer, (specs,))  # a ProcessPoolExecutor (forked where the OS can)
    ...
    future = submit(pool, fn, *args)  # a dead worker: a future that fails in its turn, as the pool's own do
    stop(pool)  # on an error or Ctrl-C: the workers killed now, not waited for

A worker forked by `concurrent.futures` waits on a queue whose pipe it holds itself, so it never sees its parent
go: a parent killed with SIGKILL (an OOM kill, `kill -9`, a job scheduler) left its workers asleep for good. Each
worker here asks Linux to kill it when its parent ends (`prctl(PR_SET_PDEATHSIG)`), and leaves Ctrl-C to the
parent, which shuts the pool down (a terminal's SIGINT reaches the whole process group: workers printed a
KeyboardInterrupt traceback each).
"""
from __future__ import annotations

import ctypes
import multiprocessing as mp
import os
import signal
import sys
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from .cli import leave_interrupts_to_parent  # (imported here: a forked child imports nothing new)

_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def fork_pool(jobs: int, initializer: Callable[..., Any] | None = None,
              initargs: tuple[Any, ...] = ()) -> ProcessPoolExecutor:
    """A ProcessPoolExecutor of `jobs` workers, forked where the OS can (they inherit this process's modules, open
    files and objects: `initargs` are not pickled then), each running `initializer(*initargs)` first."""
    context = mp.get_context("fork") if hasattr(os, "fork") else mp.get_context()
    return ProcessPoolExecutor(jobs, mp_context=context, initializer=_start,
                               initargs=(os.getpid(), initializer, initargs))


def submit(pool: ProcessPoolExecutor, fn: Callable[..., Any], *args: Any) -> Future:
    """`pool.submit(fn, *args)`, or, where a worker has died already (the pool refuses new work), a future that
    raises BrokenProcessPool when its result is asked for: callers that make the rest themselves after a death
    meet it in one place, in order, whether the death came before or after the hand-out."""
    try:
        return pool.submit(fn, *args)
    except BrokenProcessPool as exc:
        failed: Future = Future()
        failed.set_exception(exc)
        return failed


def stop(pool: ProcessPoolExecutor) -> None:
    """End `pool` now: its workers are killed (what they were doing is abandoned) and the pool shut down. For an
    error or Ctrl-C in the parent, where waiting for the pieces in flight could take as long as the slowest
    (`shutdown(wait=True)` waits; a worker ignores the SIGINT)."""
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        try:
            process.kill()
        except (OSError, ValueError, AttributeError):  # gone already
            pass
    pool.shutdown(wait=True, cancel_futures=True)


def _start(parent: int, initializer: Callable[..., Any] | None, initargs: tuple[Any, ...]) -> None:
    leave_interrupts_to_parent()
    die_with_parent(parent)
    if initializer is not None:
        initializer(*initargs)


def die_with_parent(parent: int) -> None:
    """Have this process killed when its parent (pid `parent`) ends, on Linux; if that has happened already
    (between the fork and the request), the signal it would have sent, now."""
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # no prctl to call: the worker ends with its queue as before
            pass
        if os.getppid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)
