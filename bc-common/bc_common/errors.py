"""Typed errors shared by every tool. Each names where it came from."""
from __future__ import annotations

import copy
import os
import sys
import traceback
from pathlib import Path


class BcError(Exception):
    """Base of every error the harness raises on purpose."""

    exit_code = 1


class InputError(BcError):
    """A record or file that cannot be used: `tasks.jsonl:17: missing field 'prompt'`."""

    exit_code = 2

    def __init__(self, message: str, source: str | None = None, line: int | None = None, field: str | None = None):
        self.reason = message
        self.source = source
        self.line = line
        self.field = field
        super().__init__(self.__str__())

    def __str__(self) -> str:
        where = self.source or "<input>"
        if self.line is not None:
            where = f"{where}:{self.line}"
        return f"{where}: {self.reason}"

    def located(self, source: str | None, line: int | None) -> InputError:
        """The same error, naming `source:line` (a reader adds where a record's check failed)."""
        located = copy.copy(self)
        located.source, located.line = source, line
        located.args = (str(located),)
        return located


_KINDS = {"task": ("task rows", "bc-gen"), "trajectory": ("trajectories", "bc-eval")}


class RecordKindError(InputError):
    """A record of the other kind: a task row where trajectories are read, or the reverse.

    `tasks.jsonl:1: this is a task file; bc-report reads trajectories (bc-eval's output)`
    """

    def __init__(self, found: str, source: str | None = None, line: int | None = None, reader: str = ""):
        self.found, self.reader = found, reader
        super().__init__(self._reason(), source, line)

    def _reason(self) -> str:
        wanted = "trajectory" if self.found == "task" else "task"
        rows, producer = _KINDS[wanted]
        hint = "; `bc-filter --to task` turns trajectories back into task rows" if wanted == "task" else ""
        return f"this is a {self.found} file; {self.reader or 'this command'} reads {rows} ({producer}'s output){hint}"

    def read_by(self, reader: str) -> str:
        """The message naming the command that read the record."""
        named = copy.copy(self)
        named.reader = reader
        named.reason = named._reason()
        return str(named)


class ConfigError(BcError):
    """A configuration file or option that is wrong: unknown key, wrong type, missing file."""

    exit_code = 2


class UsageError(BcError):
    """Flags that cannot work together: an output that is also an input, a run directory in use."""

    exit_code = 2


class RegistryError(BcError):
    """A bootcamp, tool or class that cannot be found or loaded."""

    exit_code = 2


class UnsafeExpressionError(BcError):
    """An expression the safe evaluator refuses (names, calls, huge powers...)."""


class TooManyOperationsError(UnsafeExpressionError):
    """A well-formed expression with more binary operations than the caller allows (a calculator's per-call cap)."""

    def __init__(self, count: int, limit: int):
        super().__init__(f"{count} operations, more than the {limit} allowed")
        self.count, self.limit = count, limit


class GraderUnavailable(BcError):
    """The verifier's own machinery failed (a sandboxed run could not be started: no file descriptors, no
    process, no uid), not the answer it grades. Never a score: verify_score lets it through, the rollout loop
    records the row as an error (`grader_unavailable`, rerun with --resume) instead of a reward of 0."""

    exit_code = 1


class ToolError(BcError):
    """A tool call that failed; the text goes back to the model, the run goes on."""

    def __init__(self, kind: str, message: str):
        self.kind = kind
        self.message = message
        super().__init__(f"{kind}: {message}")


def raised_at(exc: BaseException, module: str) -> str:
    """`FILE:LINE` where `exc` was raised, in the code of `module`'s package when the traceback passes through it
    (the bootcamp's line, not the library's it called), else the innermost frame; paths relative to the working
    directory where they lie below it."""
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return "<unknown>"
    loaded = sys.modules.get(module)
    package = loaded if hasattr(loaded, "__path__") else sys.modules.get(module.rpartition(".")[0])
    source = getattr(package, "__file__", None)
    folder = Path(source).resolve().parent if source else None
    inside = [f for f in frames if folder and Path(f.filename).resolve().is_relative_to(folder)]
    frame = (inside or frames)[-1]
    path = Path(frame.filename)
    try:
        path = path.resolve().relative_to(Path(os.getcwd()).resolve())
    except ValueError:
        pass
    return f"{path}:{frame.lineno}"
