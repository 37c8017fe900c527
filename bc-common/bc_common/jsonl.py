"""JSONL in and out: lines of stdin/files (also .gz), exact JSON, per-record flush, atomic publish of whole files.

    for lineno, line in iter_lines("tasks.jsonl"): ...
    with JsonlWriter("out.jsonl") as out: out.write(row)

Reading records of any input format (JSONL, .json, .parquet) with line-numbered errors is `bc_common.readers`.
"""
from __future__ import annotations

import json
import os
import stat
import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import orjson

from .errors import InputError


@dataclass(slots=True)
class Record:
    """One input record and where it came from."""

    data: Any
    source: str
    line: int
    raw: bytes | None = None  # the exact input line (JSONL only), for byte-preserving pass-through


@dataclass
class ReadStats:
    """What a reader saw: rows read, rows skipped as invalid (with the first reasons)."""

    read: int = 0
    skipped: int = 0
    reasons: list[str] = field(default_factory=list)

    def skip(self, error: InputError) -> None:
        self.skipped += 1
        if len(self.reasons) < 20:
            self.reasons.append(str(error))


BOM = b"\xef\xbb\xbf"
# 20 digits in a row: maybe an integer orjson would read as a float (beyond 64 bits). Found by mapping every ASCII
# digit to "0" and everything else to " " (bytes.translate, then a substring search: ~10x faster than a regex)
_DIGIT_MAP = bytes(48 if 48 <= i <= 57 else 32 for i in range(256))
_LONG_RUN = b"0" * 20


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def loads(raw: bytes | str) -> Any:
    """Parse JSON like orjson, except that integers beyond 64 bits stay exact ints (orjson rounds them to floats).
    Raises orjson.JSONDecodeError."""
    data = orjson.loads(raw)
    if _LONG_RUN in (raw if isinstance(raw, bytes) else raw.encode()).translate(_DIGIT_MAP):
        data = json.loads(raw, parse_constant=_reject_constant)
    return data


def display_name(path: str) -> str:
    """How messages name an input: its path, or `<stdin>` for '-'."""
    return "<stdin>" if path == "-" else str(path)


def open_binary(path: str | Path) -> IO[bytes]:
    """Open for reading: '-' is stdin, '.gz' is decompressed."""
    path = str(path)
    if path == "-":
        return _stdin()
    try:
        if path.endswith(".gz"):
            import gzip  # here: ~2 ms of every tool's start otherwise
            return gzip.open(path, "rb")
        return open(path, "rb", buffering=1 << 20)
    except OSError as exc:
        raise InputError(f"cannot open: {exc.strerror or exc}", source=path) from None


_peeked_stdin: IO[bytes] | None = None  # the reader stdin_has_data() peeked into: the next reader of stdin gets it


def stdin_has_data() -> bool:
    """Whether stdin holds at least one byte (waits for it or for EOF); a terminal counts as empty. Nothing is
    consumed: the next read of '-' starts with the peeked bytes."""
    global _peeked_stdin
    try:
        if os.isatty(sys.stdin.fileno()):
            return False
    except (AttributeError, OSError, ValueError):
        pass
    if _peeked_stdin is None:
        _peeked_stdin = _stdin()
    peek = getattr(_peeked_stdin, "peek", None)
    return bool(peek(1)) if peek is not None else True


def _stdin() -> IO[bytes]:
    """A reader of its own on stdin's descriptor. A reader thread blocked in it (bc-eval) then holds no lock of
    sys.stdin, which the interpreter takes at exit: else a Ctrl-C there ends in 'Fatal Python error'."""
    global _peeked_stdin
    if _peeked_stdin is not None:
        reader, _peeked_stdin = _peeked_stdin, None
        return reader
    try:
        fd = sys.stdin.fileno()
    except (AttributeError, OSError, ValueError):  # a replaced sys.stdin (click's test runner): read it as is
        return sys.stdin.buffer
    return open(fd, "rb", buffering=1 << 20, closefd=False)


def iter_lines(path: str | Path) -> Iterator[tuple[int, bytes]]:
    """Non-blank lines of a JSONL file with their 1-based line numbers (newline stripped)."""
    fh = open_binary(path)
    try:
        for lineno, line in enumerate(fh, 1):
            line = line.rstrip(b"\r\n")
            if lineno == 1 and line.startswith(BOM):  # a UTF-8 byte order mark (Windows editors) is not data
                line = line[3:]
            if line.strip():
                yield lineno, line
    except (OSError, EOFError) as exc:  # gzip.BadGzipFile is an OSError
        raise InputError(f"read failed: {exc}", source=display_name(str(path))) from None
    finally:
        if fh is not sys.stdin.buffer:
            fh.close()


def dumps(obj: Any) -> bytes:
    """One JSONL line (with newline). Non-JSON values (Fraction, Path) become strings; integers beyond 64 bits
    are written exactly."""
    try:
        return orjson.dumps(obj, default=str, option=orjson.OPT_APPEND_NEWLINE)
    except orjson.JSONEncodeError:
        return dumps_wide(obj) + b"\n"


def dumps_wide(obj: Any, sort_keys: bool = False) -> bytes:
    """Compact JSON via the standard library, for what orjson refuses (integers beyond 64 bits)."""
    try:
        return json.dumps(obj, default=str, ensure_ascii=False, allow_nan=False, sort_keys=sort_keys,
                          separators=(",", ":")).encode()
    except ValueError as exc:
        raise orjson.JSONEncodeError(str(exc)) from None


BATCH_BYTES = 1 << 16  # what write_batched joins into one write (a system call per 64 kB costs nothing)
STREAM_DELAY = 0.1  # seconds after the last write from which a streamed line goes out at once (write_batched)


def write_batched(out: IO[bytes], lines: Iterable[bytes], *, limit: int = BATCH_BYTES,
                  max_delay: float | None = None) -> int:
    """Write `lines` (each ending in a newline) to `out` joined in batches of about `limit` bytes, so a batch is one
    system call even where stdout is unbuffered (PYTHONUNBUFFERED=1, common in containers, makes every
    `sys.stdout.buffer.write` one). With `max_delay`, the first line, and a line that arrives `max_delay` seconds or
    more after the last write, go out at once with their batch: a slow producer's reader gets each row as it is
    made, a fast one's in batches (the lines after the last write wait for the next line or the end, as in a
    buffered stream). Where making a line fails (a bad input row, Ctrl-C), the lines made before it are written
    before the error goes on, as a buffered stream would at exit. Returns the number of lines."""
    batch: list[bytes] = []
    size = count = 0
    clock = time.monotonic
    flush = getattr(out, "flush", None)
    last = clock() - (max_delay or 0.0)  # the first line goes out at once
    writing = False
    try:
        for line in lines:
            batch.append(line)
            size += len(line)
            count += 1
            if size >= limit or (max_delay is not None and clock() - last >= max_delay):
                writing = True
                out.write(b"".join(batch))
                if flush is not None:
                    flush()  # out of a buffered stream's buffer too: its reader gets the batch now
                writing = False
                batch.clear()
                size = 0
                if max_delay is not None:
                    last = clock()
    except BaseException:
        if batch and not writing:  # the producer failed, not the output
            out.write(b"".join(batch))
        raise
    if batch:
        out.write(b"".join(batch))
    return count


class JsonlWriter:
    """Writes records to a file or stdout ('-'). `flush_each=True` makes every finished record durable
    against a crash of this process (bc-eval); generators buffer instead."""

    def __init__(self, path: str | Path = "-", *, append: bool = False, flush_each: bool = True):
        self.path = str(path)
        self.flush_each = flush_each
        if self.path == "-":
            self._fh: IO[bytes] = sys.stdout.buffer
        else:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self._fh = open(self.path, "ab" if append else "wb", buffering=1 << 20)
        self.count = 0

    def write(self, obj: Any) -> None:
        self.write_raw(dumps(obj))

    def write_raw(self, line: bytes) -> None:
        """Write bytes that already end in a newline (pass-through of input lines)."""
        try:
            self._fh.write(line)
            self.count += 1
            if self.flush_each:
                self._fh.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise self._named(exc) from None

    def flush(self) -> None:
        try:
            self._fh.flush()
        except BrokenPipeError:
            pass
        except OSError as exc:
            raise self._named(exc) from None

    def _named(self, exc: OSError) -> OSError:
        """The error naming this output (`> /dev/full`: 'stdout: No space left on device')."""
        return _named(exc, "stdout" if self.path == "-" else self.path)

    def close(self) -> None:
        self.flush()
        if self._fh is not sys.stdout.buffer:
            self._fh.close()

    def __enter__(self) -> JsonlWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class AtomicFile:
    """Write a whole file or nothing: temp file in the same folder, fsync, rename.

        with AtomicFile("data/train.jsonl") as fh:
            fh.write(b"...")
    """

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._fh: IO[bytes] | None = None
        self._tmp = ""

    def __enter__(self) -> IO[bytes]:
        if self.path.exists() and not self.path.is_file():  # /dev/null, a FIFO: write through, never replace
            self._fh = open(self.path, "wb")
            return self._fh
        self.path.parent.mkdir(parents=True, exist_ok=True)
        import tempfile  # here: ~4 ms of every tool's start otherwise

        # the pid in the name lets a later run tell a killed run's leftovers (bc_common.locks) from live ones
        fd, self._tmp = tempfile.mkstemp(prefix=f".{self.path.name}.{os.getpid()}.", suffix=".tmp",
                                         dir=self.path.parent)
        os.fchmod(fd, _published_mode(self.path))  # mkstemp makes 0600; the output gets what open() would give
        self._fh = open(fd, "wb", buffering=1 << 20)
        return self._fh

    def __exit__(self, exc_type: object, exc: BaseException | None, *rest: object) -> None:
        try:
            self._finish(exc_type)
        except OSError as error:
            raise _named(error, self.path) from None
        if isinstance(exc, OSError):  # a write into the file failed (`-o /dev/full`): name the file
            _named(exc, self.path)

    def _finish(self, exc_type: object) -> None:
        assert self._fh is not None
        if not self._tmp:
            self._fh.close()
            return
        try:
            if exc_type is None:
                self._fh.flush()
                os.fsync(self._fh.fileno())
            self._fh.close()
            if exc_type is None:
                os.replace(self._tmp, self.path)
                _fsync_dir(self.path.parent)
        finally:
            if os.path.exists(self._tmp):
                os.unlink(self._tmp)


def _named(exc: OSError, path: str | Path) -> OSError:
    """`exc` naming `path` when it names no file (a failed write or flush: 'out.jsonl: No space left on device')."""
    if not exc.filename:
        exc.filename = str(path)
    return exc


def _published_mode(path: Path) -> int:
    """The mode of the file being replaced, else 0666 minus the umask (what a plain open() creates)."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        return 0o666 & ~current_umask()


def current_umask() -> int:
    """The process umask (read from /proc where it can be, so no other thread ever sees a changed one)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    with AtomicFile(path) as fh:
        fh.write(data)
