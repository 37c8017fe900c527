"""The input rows of a run, read once per pass: bc-train checks every row, then writes train.parquet and
val.parquet, without holding the rows in memory. Stdin is copied to a temporary file first (a stream is read once);
rows read from that copy keep the names `<stdin>:LINE`.

    with RunInputs(["tasks.jsonl"], val_file=None) as inputs:
        for rec in inputs.rows(): ...
        for rec in inputs.val_rows(): ...
"""
from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from types import TracebackType

from bc_common.errors import InputError
from bc_common.jsonl import Record, open_binary
from bc_common.readers import read_records

STDIN = "<stdin>"


class RunInputs:
    """FILES (stdin when none, or '-') and the --val file, each readable as many times as a pass needs."""

    def __init__(self, files: list[str], val_file: str | None = None):
        self.files = [str(f) for f in files] or ["-"]
        self.val_file = val_file
        self._spool: str | None = None

    def __enter__(self) -> RunInputs:
        if "-" in self.files:
            fd, self._spool = tempfile.mkstemp(prefix="bc-train-stdin.", suffix=".jsonl")
            try:
                with os.fdopen(fd, "wb") as out:
                    try:
                        shutil.copyfileobj(open_binary("-"), out, 1 << 20)
                    except OSError as exc:
                        raise InputError(f"read failed: {exc}", source=STDIN) from None
            except BaseException:  # an interrupted copy leaves no temp file behind
                self.__exit__(None, None, None)
                raise
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._spool is not None:
            os.unlink(self._spool)
            self._spool = None

    def rows(self) -> Iterator[Record]:
        """Every row of FILES in order (FILE:LINE as the reader names them)."""
        stdin_done = False
        for path in self.files:
            if path == "-":
                if stdin_done:  # stdin is read once: a second '-' holds nothing more
                    continue
                stdin_done = True
                yield from self._spooled()
            else:
                yield from read_records([path])

    def val_rows(self) -> Iterator[Record]:
        """Every row of the --val file (none without one)."""
        if self.val_file:
            yield from read_records([self.val_file])

    def _spooled(self) -> Iterator[Record]:
        assert self._spool is not None, "RunInputs is used as a context manager"
        spool = self._spool
        try:
            for rec in read_records([spool]):
                yield Record(rec.data, STDIN, rec.line, rec.raw)
        except InputError as exc:
            if exc.source != spool:
                raise
            raise exc.located(STDIN, exc.line) from None
