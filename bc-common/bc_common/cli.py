"""What every command shares: error reporting and exit codes.

Exit codes: 0 success; 1 runtime failure; 2 bad input, bad config or bad usage; 130 interrupted.
"""
from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import Any, TypeVar

from .errors import BcError

F = TypeVar("F", bound=Callable[..., Any])

EXIT_CODES_HELP = "Exit codes: 0 ok, 1 failure, 2 bad input/config/usage, 130 interrupted."


def report_errors(prog: str) -> Callable[[F], F]:
    """Turn harness errors into `prog: error: message` on stderr and the documented exit code."""

    def wrap(fn: F) -> F:
        @functools.wraps(fn)
        def inner(*args: Any, **kwargs: Any) -> Any:
            try:
                return fn(*args, **kwargs)
            except BcError as exc:
                print(f"{prog}: error: {exc}", file=sys.stderr)
                sys.exit(exc.exit_code)
            except KeyboardInterrupt:
                print(f"{prog}: interrupted", file=sys.stderr)
                sys.exit(130)
            except BrokenPipeError:
                sys.stderr.close()
                sys.exit(0)

        return inner  # type: ignore[return-value]

    return wrap
