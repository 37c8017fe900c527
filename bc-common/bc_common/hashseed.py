"""Work whose result follows Python's string hash seed, done under a fixed one.

Some generators the harness adapts (reasoning-core's tasks, a few reasoning-gym datasets) iterate sets or dicts of
strings while they make an item, so the item follows the per-process hash seed (`PYTHONHASHSEED`, random by
default) and two runs of the same seed would differ. `fixed_hash_seed(fn, *args)` returns `fn(*args)` as made under
PYTHONHASHSEED=0: here when this process runs under it, else in one helper interpreter started with it (spawned
once and kept for the process's life; a forked child starts its own). `fn` and its arguments and result cross a
process boundary there: a module-level function and picklable values.

bc-gen runs under PYTHONHASHSEED=0 itself (`bc_gen.entry`), so its rows never need the helper.
"""
from __future__ import annotations

import multiprocessing
import os
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

T = TypeVar("T")
HASH_SEED = "0"

_HELPER: dict[int, ProcessPoolExecutor] = {}  # pid -> the helper interpreter


def fixed() -> bool:
    """Whether this process runs under the fixed hash seed (PYTHONHASHSEED=0 turns randomization off)."""
    return not sys.flags.hash_randomization


def fixed_hash_seed(fn: Callable[..., T], *args: Any) -> T:
    """`fn(*args)` under PYTHONHASHSEED=0 (here, or in the helper interpreter)."""
    if fixed():
        return fn(*args)
    try:
        return _helper().submit(fn, *args).result()
    except BrokenProcessPool:  # the helper died (killed, out of memory): one fresh start, then the error stands
        _HELPER.clear()
        return _helper().submit(fn, *args).result()


def _helper() -> ProcessPoolExecutor:
    pid = os.getpid()
    if pid not in _HELPER:
        _HELPER.clear()
        saved = os.environ.get("PYTHONHASHSEED")
        os.environ["PYTHONHASHSEED"] = HASH_SEED  # read by the spawned interpreter at its start
        try:
            _HELPER[pid] = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
            _HELPER[pid].submit(int).result()  # started now, while the variable holds
        finally:
            if saved is None:
                del os.environ["PYTHONHASHSEED"]
            else:
                os.environ["PYTHONHASHSEED"] = saved
    return _HELPER[pid]


def reexec_under_fixed_hash_seed() -> None:
    """Start this program again under PYTHONHASHSEED=0 unless it runs under it (POSIX; the same argv, environment,
    open files and pid). Called first thing by a command-line entry point, before anything is read or written."""
    if fixed() or os.name != "posix" or not sys.executable or not getattr(sys, "orig_argv", None):
        return
    os.environ["PYTHONHASHSEED"] = HASH_SEED
    try:
        os.execv(sys.executable, sys.orig_argv)
    except OSError:  # cannot start again (an odd launcher): items that need it go through the helper instead
        pass
