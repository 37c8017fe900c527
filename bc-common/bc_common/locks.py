"""One writer per output: an advisory lock (flock) on a hidden lock file beside the output, held for the run.

The kernel drops the lock when its holder exits, even after kill -9, so a lock never goes stale; the file itself
is removed on a clean exit (and reused after a kill). A second writer is refused at once (UsageError, exit 2)
naming the holder's pid and command. Holding the lock also proves that hidden temp files of the output
(`.NAME.*.tmp`, left by a killed run) are stale: they are removed when it is taken.

    with OutputLock("runs.jsonl", prog="bc-eval"):
        ...   # write runs.jsonl and runs.jsonl.meta.json
"""
from __future__ import annotations

import fcntl
import os
import re
import stat
import sys
import time
from pathlib import Path
from typing import Any

import orjson

from .errors import UsageError

_TEMP = r"(?:\.meta\.json)?\.(?:(?P<pid>\d+)\.)?[A-Za-z0-9_]+\.tmp"  # AtomicFile's names, see jsonl.py


def lock_path(output: str | Path) -> Path:
    """The lock file of `output`: `.NAME.lock` in the same folder."""
    out = Path(output)
    return out.with_name(f".{out.name}.lock")


class OutputLock:
    """An exclusive advisory lock on `output` for one run ('-' and devices such as /dev/null take none)."""

    def __init__(self, output: str | Path, *, prog: str, flag: str = "-o", log: Any = None):
        self.output = str(output)
        self.prog = prog
        self.flag = flag
        self.log = log or (lambda line: print(line, file=sys.stderr))
        self._fd: int | None = None
        self._file: Path | None = None

    def __enter__(self) -> OutputLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    def acquire(self) -> None:
        """Take the lock or raise UsageError naming the process that holds it; then clear stale temp files."""
        if not _lockable(self.output):
            return
        path = lock_path(self.output)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._fd, self._file = self._lock_file(path), path
        except PermissionError:  # a folder we may not write in: lock the output itself where it exists
            self._fd = self._lock_output()
        except OSError:
            return  # no lock possible here (a read-only folder); writing the output will fail and say so
        if self._file is not None:
            remove_stale_temps(self.output, locked=True, prog=self.prog, log=self.log)

    def _lock_file(self, path: Path) -> int:
        while True:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = _holder(fd)
                os.close(fd)
                self._refuse(holder)
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(path))
            except FileNotFoundError:
                same = False
            if same:  # else the holder removed it as we opened it: take the new one
                break
            os.close(fd)
        info = orjson.dumps({"pid": os.getpid(), "command": self.prog, "host": _host(),
                             "started": time.strftime("%Y-%m-%dT%H:%M:%S%z")}) + b"\n"
        os.ftruncate(fd, 0)
        os.pwrite(fd, info, 0)
        return fd

    def _lock_output(self) -> int | None:
        try:
            fd = os.open(self.output, os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            return None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            self._refuse(None)
        return fd

    def _refuse(self, holder: dict[str, Any] | None) -> None:
        who = "another process"
        if holder:
            where = f" on {holder['host']}" if holder.get("host") not in (None, _host()) else ""
            who = f"{holder.get('command') or 'a process'} (pid {holder.get('pid')}{where}, since " \
                  f"{holder.get('started') or '?'})"
        raise UsageError(f"{self.output}: {self.flag} is being written by {who}; two writers would corrupt it: "
                         "wait for it to finish, or write to another path")

    def release(self) -> None:
        """Drop the lock and remove the lock file (after a kill -9 the file stays and is reused)."""
        if self._fd is None:
            return
        if self._file is not None:
            try:
                os.unlink(self._file)  # while still holding it: a waiter that opened it retries on the new one
            except OSError:
                pass
        os.close(self._fd)
        self._fd = self._file = None


def _lockable(output: str) -> bool:
    """Files and folders (existing or not) are locked; stdout and devices (/dev/null, a FIFO) are not."""
    if output == "-":
        return False
    try:
        mode = os.stat(output).st_mode
    except OSError:
        return True
    return stat.S_ISREG(mode) or stat.S_ISDIR(mode)


def _holder(fd: int) -> dict[str, Any] | None:
    try:
        data = orjson.loads(os.pread(fd, 4096, 0))
    except (OSError, orjson.JSONDecodeError):
        return None
    return data if isinstance(data, dict) else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def stale_temps(output: str | Path, *, locked: bool) -> tuple[list[Path], list[Path]]:
    """Hidden temp files of `output` (`.NAME.<pid>.<random>.tmp`, also its `.meta.json`'s) left by a killed run:
    (removable, kept). With the output's lock held every one is stale; without it, only those whose pid is gone."""
    out = Path(output)
    pattern = re.compile(rf"\.{re.escape(out.name)}{_TEMP}")
    removable: list[Path] = []
    kept: list[Path] = []
    try:
        names = os.listdir(out.parent if str(out.parent) else ".")
    except OSError:
        return removable, kept
    for name in names:
        match = pattern.fullmatch(name)
        if match is None:
            continue
        pid = int(match["pid"]) if match["pid"] else None
        if pid == os.getpid():
            continue  # this run's own
        dead = pid is not None and not _alive(pid)
        (removable if locked or dead else kept).append(out.with_name(name))
    return removable, kept


def remove_stale_temps(output: str | Path, *, locked: bool, prog: str, log: Any = None) -> int:
    """Remove `output`'s stale temp files and say so on stderr; name those that may still be in use. Returns
    how many were removed."""
    say = log or (lambda line: print(line, file=sys.stderr))
    removable, kept = stale_temps(output, locked=locked)
    removed = 0
    size = 0
    for path in removable:
        try:
            size += path.stat().st_size
            path.unlink()
            removed += 1
        except OSError:
            kept.append(path)
    if removed:
        say(f"{prog}: removed {removed} stale temp file(s) of {output} left by an interrupted run "
            f"({size / 1e6:.1f} MB)")
    if kept:
        say(f"{prog}: note: {len(kept)} temp file(s) of {output} may belong to a running process; remove them "
            f"if none is: {', '.join(str(p) for p in kept[:3])}")
    return removed


def _host() -> str:
    """This machine's name (what `socket.gethostname()` gives, without importing socket for it)."""
    return os.uname().nodename
