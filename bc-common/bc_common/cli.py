"""What every command shares: one error path and the exit codes.

Exit codes: 0 success; 1 runtime failure; 2 bad input, bad config, bad usage or an output that cannot be
written; 130 interrupted (SIGINT or SIGTERM: temp files are removed, nothing half-written is published).
Every error is one line on stderr, `PROG: error: MESSAGE`; no traceback unless BC_DEBUG=1.

    @click.command("bc-filter", cls=BcCommand)
    def cli(...): ...
"""
from __future__ import annotations

import functools
import math
import os
import signal
import sys
import threading
import traceback
from collections.abc import Callable
from typing import Any, TypeVar

import click

from .errors import BcError

F = TypeVar("F", bound=Callable[..., Any])

EXIT_CODES_HELP = "Exit codes: 0 ok, 1 failure, 2 bad input/config/usage or unwritable output, 130 interrupted."

_owner_pid = 0


def _interrupt(signum: int, frame: Any) -> None:
    if os.getpid() != _owner_pid:  # a forked worker (e.g. a multiprocessing pool being terminated): die at once
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        return
    raise KeyboardInterrupt


def stop_on_sigterm() -> None:
    """Make SIGTERM unwind like Ctrl-C (KeyboardInterrupt) in this process, so `finally` blocks run and temp
    files are removed. Forked workers that inherit the handler die at once instead."""
    global _owner_pid
    if threading.current_thread() is not threading.main_thread():
        return  # an embedding caller's thread: leave its signals alone
    _owner_pid = os.getpid()
    signal.signal(signal.SIGTERM, _interrupt)


def report(exc: BaseException, prog: str) -> int:
    """Print `exc` the shared way and return its exit code (the one place that maps errors to codes)."""
    if isinstance(exc, click.exceptions.Exit):
        return exc.exit_code
    if isinstance(exc, (click.Abort, KeyboardInterrupt)):
        _say(f"{prog}: interrupted")
        return 130
    if isinstance(exc, click.UsageError):
        _say(f"{prog}: error: {exc.format_message()}\nTry '{prog} --help' for help.")
        return 2
    if isinstance(exc, click.ClickException):
        _say(f"{prog}: error: {exc.format_message()}")
        return exc.exit_code
    if isinstance(exc, BcError):
        _say(f"{prog}: error: {exc}")
        return exc.exit_code
    if isinstance(exc, BrokenPipeError):  # the reader went away (`| head`): stop quietly
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 0
    if isinstance(exc, OSError):  # a path we were given cannot be opened or written
        where = f"{exc.filename}: " if exc.filename else ""
        _say(f"{prog}: error: {where}{exc.strerror or exc}")
        return 2 if exc.filename else 1
    if os.environ.get("BC_DEBUG"):
        traceback.print_exception(exc)
    _say(f"{prog}: error: internal error: {type(exc).__name__}: {exc} (BC_DEBUG=1 shows the traceback)")
    return 1


def _say(text: str) -> None:
    try:
        print(text, file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


def run_guarded(fn: Callable[[], Any], prog: str) -> int:
    """Call `fn()` with SIGTERM handled; return its exit code (an int result, else 0) or the error's."""
    stop_on_sigterm()
    try:
        result = fn()
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException as exc:  # noqa: BLE001 — every error goes through the one mapping above
        return report(exc, prog)
    return result if isinstance(result, int) else 0


class BcCommand(click.Command):
    """A click command with the shared error path: `@click.command("bc-x", cls=BcCommand)`.

    Run as a script (standalone mode) it never shows a traceback and exits with the documented code;
    called with `standalone_mode=False` it raises as click does.
    """

    def main(self, args: Any = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        prog = prog_name or self.name or "bc"
        code = run_guarded(lambda: super(BcCommand, self).main(args, prog, complete_var, standalone_mode=False,
                                                               **extra), prog)
        sys.exit(code)


class BcGroup(click.Group):
    """`BcCommand` for command groups (bc-toolserve)."""

    def main(self, args: Any = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        prog = prog_name or self.name or "bc"
        code = run_guarded(lambda: super(BcGroup, self).main(args, prog, complete_var, standalone_mode=False,
                                                             **extra), prog)
        sys.exit(code)


def report_errors(prog: str) -> Callable[[F], F]:
    """The shared error path as a decorator, for a plain function used as a command body."""

    def wrap(fn: F) -> F:
        @functools.wraps(fn)
        def inner(*args: Any, **kwargs: Any) -> Any:
            stop_on_sigterm()
            try:
                return fn(*args, **kwargs)
            except SystemExit:
                raise
            except BaseException as exc:  # noqa: BLE001
                sys.exit(report(exc, prog))

        return inner  # type: ignore[return-value]

    return wrap


class FiniteFloat(click.ParamType):
    """A float option that refuses nan and ±inf (a threshold of nan would silently drop every row)."""

    name = "number"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        try:
            number = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number", param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return number


FINITE_FLOAT = FiniteFloat()
