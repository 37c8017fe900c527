"""What every command shares: error reporting and exit codes.

Exit codes: 0 success; 1 runtime failure; 2 bad input, bad config or bad usage; 130 interrupted.
"""
from __future__ import annotations

import functools
import os
import signal
import sys
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from .errors import BcError

F = TypeVar("F", bound=Callable[..., Any])

_BAD_PATH = (IsADirectoryError, NotADirectoryError, FileNotFoundError, PermissionError)

EXIT_CODES_HELP = "Exit codes: 0 ok, 1 failure, 2 bad input/config/usage, 130 interrupted."


_owner_pid = 0


def _interrupt(signum: int, frame: Any) -> None:
    if os.getpid() != _owner_pid:  # a forked worker (e.g. a multiprocessing pool being terminated): die at once
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        return
    raise KeyboardInterrupt


def report_errors(prog: str) -> Callable[[F], F]:
    """Turn harness errors into `prog: error: message` on stderr and the documented exit code."""

    def wrap(fn: F) -> F:
        @functools.wraps(fn)
        def inner(*args: Any, **kwargs: Any) -> Any:
            if threading.current_thread() is threading.main_thread():
                # SIGTERM unwinds like Ctrl-C: temp files are removed, nothing half-written is published
                global _owner_pid
                _owner_pid = os.getpid()
                signal.signal(signal.SIGTERM, _interrupt)
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
            except OSError as exc:  # a path we were given cannot be opened or written: no traceback
                where = f"{exc.filename}: " if exc.filename else ""
                print(f"{prog}: error: {where}{exc.strerror or exc}", file=sys.stderr)
                sys.exit(2 if isinstance(exc, _BAD_PATH) else 1)

        return inner  # type: ignore[return-value]

    return wrap
