"""JSONL in and out: stdin/files (also .gz, .json, .parquet), line-numbered errors, per-record flush,
atomic publish of whole files.

    for rec in read_records(["tasks.jsonl"], skip_invalid=True, stats=stats):
        rec.data, rec.source, rec.line, rec.raw
"""
from __future__ import annotations

import gzip
import json
import os
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
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


def _display(path: str) -> str:
    return "<stdin>" if path == "-" else str(path)


def open_binary(path: str | Path) -> IO[bytes]:
    """Open for reading: '-' is stdin, '.gz' is decompressed."""
    path = str(path)
    if path == "-":
        return sys.stdin.buffer
    try:
        if path.endswith(".gz"):
            return gzip.open(path, "rb")
        return open(path, "rb", buffering=1 << 20)
    except OSError as exc:
        raise InputError(f"cannot open: {exc.strerror or exc}", source=path) from None


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
    except (OSError, EOFError, gzip.BadGzipFile) as exc:
        raise InputError(f"read failed: {exc}", source=_display(str(path))) from None
    finally:
        if fh is not sys.stdin.buffer:
            fh.close()


def read_records(paths: Iterable[str | Path] | None = None, *, skip_invalid: bool = False,
                 stats: ReadStats | None = None, validate: Callable[[Any], None] | None = None,
                 convert: Callable[[Any], Any] | None = None) -> Iterator[Record]:
    """Records from JSONL (default), .json (object or array) and .parquet files; stdin when `paths` is empty.

    `convert(data)` (before `validate`) may return another object for a row (an older format read as ours);
    such a record has no `raw` bytes. A line that is not JSON, or that `convert` or `validate` rejects (raising
    InputError), raises InputError naming FILE:LINE — or, with `skip_invalid`, is counted in `stats` and skipped.
    """
    stats = stats if stats is not None else ReadStats()
    for path in list(paths or []) or ["-"]:
        path = str(path)
        source = _display(path)
        if path.endswith(".parquet"):
            from .parquet_io import read_parquet

            rows = ((i, None, row) for i, row in enumerate(read_parquet(path), 1))
        elif path.endswith(".json") or path.endswith(".json.gz"):
            rows = ((i, None, row) for i, row in enumerate(_read_json_file(path), 1))
        else:
            rows = ((lineno, line, None) for lineno, line in iter_lines(path))
        for lineno, raw, data in rows:
            try:
                if raw is not None:
                    try:
                        data = loads(raw)
                    except orjson.JSONDecodeError as exc:
                        raise InputError(f"invalid JSON: {exc}", source=source, line=lineno) from None
                if convert is not None or validate is not None:
                    try:
                        if convert is not None:
                            converted = convert(data)
                            if converted is not data:
                                data, raw = converted, None
                        if validate is not None:
                            validate(data)
                    except InputError as exc:
                        exc.source, exc.line = source, lineno
                        raise InputError(exc.reason, source=source, line=lineno, field=exc.field) from None
            except InputError as exc:
                if not skip_invalid:
                    raise
                stats.skip(exc)
                continue
            stats.read += 1
            yield Record(data, source, lineno, raw)


def _read_json_file(path: str) -> list[Any]:
    with open_binary(path) as fh:
        try:
            data = loads(fh.read().removeprefix(BOM))
        except orjson.JSONDecodeError as exc:
            raise InputError(f"invalid JSON: {exc}", source=path) from None
    return data if isinstance(data, list) else [data]


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
        self._fh.write(line)
        self.count += 1
        if self.flush_each:
            self._fh.flush()

    def flush(self) -> None:
        try:
            self._fh.flush()
        except BrokenPipeError:
            pass

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
        fd, self._tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp", dir=self.path.parent)
        self._fh = open(fd, "wb", buffering=1 << 20)
        return self._fh

    def __exit__(self, exc_type: object, *rest: object) -> None:
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
