"""Typed errors shared by every tool. Each names where it came from."""
from __future__ import annotations


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


class ToolError(BcError):
    """A tool call that failed; the text goes back to the model, the run goes on."""

    def __init__(self, kind: str, message: str):
        self.kind = kind
        self.message = message
        super().__init__(f"{kind}: {message}")
