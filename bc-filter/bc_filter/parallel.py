"""bc-filter's fast path on several cores: a large regular file cut at line ends into pieces that worker processes
filter (`scan.scan`: the same checks, the same filters), the kept lines written in input order.

    first = filter_file(fh, source, run, jobs, skip_invalid, writer, counts, bad)  # scan.scan the rest from `first`

Only what can be read by position takes this path: a regular file (named, or stdin redirected from one) of at least
`PARALLEL_MIN` bytes past its current position, up to its last line end as it stands; pipes, compressed files and
what is appended meanwhile are read by the caller as before, so a live stream keeps its row-by-row latency. Each
worker reads its piece itself (`os.pread` on the descriptor it inherited) and puts the piece's kept lines in a slot
of shared memory, so neither the input nor the output crosses a pipe; its counts and bad lines (by their number
within the piece) come back by pickle, and the parent turns them into FILE:LINE errors in input order: the output
bytes, counts and first error are those of one process. A seed evaluator row (its sample number follows the input
order), or a worker that dies, sends the file from that piece on back to the parent. The workers are forked (Linux)
for the file and gone when it is done.
"""
from __future__ import annotations

import io
import mmap
import os
import stat
import sys
from collections import deque
from collections.abc import Callable, Iterator
from typing import IO, Any

from .scan import Counts, Out, Run, scan

PIECE = 4 << 20  # bytes a worker filters at a time (a line longer than that makes its piece longer)
PARALLEL_MIN = 32 << 20  # a smaller input is filtered here: starting workers would cost about what they save
MAX_JOBS = 8
WINDOW = 2  # pieces in flight per worker: one being filtered, one waiting
_SCAN = 1 << 16  # bytes read at a time while looking for a line end


def available() -> bool:
    """Workers are forked, which only Linux does safely and cheaply here."""
    return sys.platform.startswith("linux")


def default_jobs() -> int:
    """One worker per usable core, at most MAX_JOBS."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(cores, MAX_JOBS))


def filter_file(fh: IO[bytes], source: str, run: Run, jobs: int, skip_invalid: bool, writer: Out, counts: Counts,
                bad: Callable[[str, int, str | None], None]) -> int:
    """Filter what `fh` holds from its position to its last line end in `jobs` workers, when it is a regular file
    that large: kept lines to `writer`, tallies to `counts`, bad lines to `bad` (in input order). Returns the number
    of the first line left to the caller (1 when nothing was done here), with `fh` positioned at its first byte."""
    region = _region(fh)
    if region is None:
        return 1
    fd, start, end = region
    # imported for large files only (~12 ms of every start otherwise)
    from concurrent.futures import Future
    from concurrent.futures.process import BrokenProcessPool

    from bc_common.workers import fork_pool, stop, submit

    writer.write()  # the rows kept so far go first (and no forked copy holds them)
    slots, size = jobs * WINDOW, PIECE + _SCAN  # a slot's bytes: a piece's kept lines, unless a line is longer
    shared = mmap.mmap(-1, slots * size)  # the kept lines come back through it (a copy in, a write out)
    buffer = memoryview(shared)
    pool = fork_pool(jobs, _init, (run, skip_invalid, fd, shared, size))
    done = 0  # lines before the next piece
    free = list(range(slots))
    pending: deque[tuple[int, int, Future]] = deque()  # (piece start, slot, its future)
    pieces = _pieces(fd, start, end)
    try:
        while True:
            while free and (piece := next(pieces, None)) is not None:
                slot = free.pop()
                pending.append((piece[0], slot, submit(pool, _filter_piece, *piece, slot)))
            if not pending:
                break
            piece_start, slot, future = pending.popleft()
            try:
                result = future.result()
            except BrokenProcessPool:  # a worker died (killed, out of memory): nothing of this piece is out yet
                print(f"bc-filter: a worker process died; filtering the rest of {source} in one process",
                      file=sys.stderr)
                result = None
            if result is None:  # (or a seed row) from this piece on, in this process
                fh.seek(piece_start)
                return done + 1
            kept, tally, events = result
            if isinstance(kept, int):  # its length in the slot
                with buffer[slot * size:slot * size + kept] as view:
                    writer.write(view)
            else:
                writer.write(kept)
            free.append(slot)
            counts.add(tally)  # (without --skip-invalid, the rows up to its bad line: what one process counts)
            for line, reason, field in events:
                bad(reason, done + line, field)
            done += tally.lines
    except BaseException:  # a bad line, Ctrl-C, the output gone: the pieces in flight are not waited for
        stop(pool)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        buffer.release()
        shared.close()
    fh.seek(end)
    return done + 1


def _region(fh: IO[bytes]) -> tuple[int, int, int] | None:
    """(descriptor, start, end) of a regular file's unread part up to its last line end, or None (not a plain
    regular file, or less than PARALLEL_MIN)."""
    if type(fh) is not io.BufferedReader:  # gzip and other wrappers read through a decoder
        return None
    try:
        fd = fh.fileno()
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size - fh.tell() < PARALLEL_MIN:
            return None
        start = fh.tell()
    except (OSError, ValueError):
        return None
    end = _last_line_end(fd, start, info.st_size)
    if end is None or end - start < PARALLEL_MIN:
        return None
    return fd, start, end


def _last_line_end(fd: int, start: int, size: int) -> int | None:
    """The offset just past the last newline in [start, size), or None."""
    pos = size
    while pos > start:
        low = max(start, pos - _SCAN)
        found = os.pread(fd, pos - low, low).rfind(b"\n")
        if found >= 0:
            return low + found + 1
        pos = low
    return None


def _line_end_after(fd: int, pos: int, end: int) -> int:
    """The offset just past the first newline at or after `pos`, or `end`."""
    while pos < end:
        window = os.pread(fd, min(_SCAN, end - pos), pos)
        if not window:
            break
        found = window.find(b"\n")
        if found >= 0:
            return pos + found + 1
        pos += len(window)
    return end


def _pieces(fd: int, start: int, end: int) -> Iterator[tuple[int, int, bool]]:
    """(start, end, first) of pieces of about PIECE bytes, each ending at a line end."""
    first = True
    while start < end:
        cut = _line_end_after(fd, start + PIECE, end) if start + PIECE < end else end
        yield start, cut, first
        start, first = cut, False


# -- in the workers -------------------------------------------------------------------------------------------

_worker: tuple[Run, bool, int, mmap.mmap, int] | None = None


def _init(run: Run, skip_invalid: bool, fd: int, shared: mmap.mmap, size: int) -> None:
    global _worker
    _worker = (run, skip_invalid, fd, shared, size)


class _Stop(Exception):
    """A bad line without --skip-invalid: the piece ends there (the parent raises its error)."""


class _NeedsOrder(Exception):
    """A seed evaluator row: converting it needs the rows before it."""


class _InOrderOnly:
    def convert(self, row: Any) -> Any:
        raise _NeedsOrder()


def _filter_piece(start: int, end: int, first: bool,
                  slot: int) -> tuple[bytes | int, Counts, list[tuple[int, str, str | None]]] | None:
    """(kept lines, counts, bad lines as (line within the piece, reason, field)), or None for a piece that must be
    filtered in order (a seed row). The kept lines are in the shared slot (their length returned) when they fit."""
    assert _worker is not None
    run, skip_invalid, fd, shared, size = _worker
    data = os.pread(fd, end - start, start)
    writer = Out(None, sys.maxsize, None)
    counts = Counts(run.labels)
    events: list[tuple[int, str, str | None]] = []

    def bad(reason: str, line: int, field: str | None) -> None:
        events.append((line, reason, field))
        if not skip_invalid:
            raise _Stop()

    # a piece after the first is numbered from 2 within itself, so that scan drops no byte order mark from it (its
    # line 1 is not the file's)
    offset = 0 if first else 1
    try:
        scan(run, io.BytesIO(data), 1 + offset, writer, counts, bad,
             _InOrderOnly() if run.validate is not None else None, None)
    except _Stop:
        pass
    except _NeedsOrder:
        return None
    kept: bytes | int = b"".join(writer.lines)
    if len(kept) <= size:
        shared[slot * size:slot * size + len(kept)] = kept
        kept = len(kept)
    return kept, counts, [(line - offset, reason, field) for line, reason, field in events]
