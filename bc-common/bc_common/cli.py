"""What every command shares: one exit path and one table of exit codes.

Every tool's command is a `BcCommand` (or `BcGroup`): errors, interrupts, a broken pipe and a full disk all end in
`report()`, which prints one line on stderr, `PROG: error: MESSAGE` (no traceback unless BC_DEBUG=1), and
returns the code from `EXIT_CODES`. Tool modules install no signal handler and catch no BaseException of their own.

    @click.command("bc-filter", cls=BcCommand)
    def cli(...): ...
"""
from __future__ import annotations

import errno
import os
import signal
import sys
import textwrap
import threading
import traceback
from collections.abc import Callable
from typing import Any, NamedTuple

import click

from .errors import BcError, RecordKindError
from .fdlimit import raise_open_file_limit


class ExitCode(NamedTuple):
    code: int
    meaning: str


EXIT_CODES = (
    ExitCode(0, "ok"),
    ExitCode(1, "failure"),
    ExitCode(2, "bad input, config or usage, or an output that cannot be written (missing folder, no permission, "
                "disk full)"),
    ExitCode(3, "bc-train --check: verl is not installed"),
    ExitCode(130, "interrupted by SIGINT or SIGTERM (nothing half-written is published)"),
)
EXIT_CODES_HELP = "Exit codes: " + "; ".join(f"{e.code} {e.meaning}" for e in EXIT_CODES) + "."
"""The one exit-code line: every `--help` epilog ends with it and README.md quotes it (a test checks both)."""
EXIT_CODES_EPILOG = "\b\n" + textwrap.fill(EXIT_CODES_HELP, 100, break_on_hyphens=False)

OK, FAILURE, BAD_INPUT, EXTRA_MISSING, INTERRUPTED = (e.code for e in EXIT_CODES)

# errno values of a write that cannot succeed however often it is retried: the output is unusable
_OUTPUT_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS}

_owner_pid = 0


class PipeClosed(Exception):
    """The reader of stdout went away (`| head`). Carries a BrokenPipeError past click, which would exit 1."""


def _interrupt(signum: int, frame: Any) -> None:
    if os.getpid() != _owner_pid:  # a forked worker (e.g. a multiprocessing pool being terminated): die at once
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        return
    raise KeyboardInterrupt


def leave_interrupts_to_parent() -> None:
    """In a worker process (bc_common.workers): Ctrl-C, which a terminal sends to the whole process group, is the
    parent's to handle; the parent stops its workers. Without this each worker printed a KeyboardInterrupt
    traceback of its own."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def stop_on_sigterm() -> None:
    """Make SIGTERM unwind like Ctrl-C (KeyboardInterrupt) in this process, so `finally` blocks run and temp
    files are removed. Forked workers that inherit the handler die at once instead."""
    global _owner_pid
    if threading.current_thread() is not threading.main_thread():
        return  # an embedding caller's thread: leave its signals alone
    _owner_pid = os.getpid()
    signal.signal(signal.SIGTERM, _interrupt)


def report(exc: BaseException, prog: str, interrupted_note: str = "") -> int:
    """Print `exc` the shared way and return its exit code (the one place that maps errors to codes)."""
    if isinstance(exc, click.exceptions.Exit):
        return exc.exit_code
    if isinstance(exc, (click.Abort, KeyboardInterrupt)):
        _say(f"{prog}: interrupted{'; ' + interrupted_note if interrupted_note else ''}")
        return INTERRUPTED
    if isinstance(exc, click.UsageError):
        _say(f"{prog}: error: {exc.format_message()}\nTry '{prog} --help' for help.")
        return BAD_INPUT
    if isinstance(exc, click.ClickException):
        _say(f"{prog}: error: {exc.format_message()}")
        return exc.exit_code
    if isinstance(exc, RecordKindError):
        _say(f"{prog}: error: {exc.read_by(prog)}")
        return exc.exit_code
    if isinstance(exc, BcError):
        _say(f"{prog}: error: {exc}")
        return exc.exit_code
    if isinstance(exc, (BrokenPipeError, PipeClosed)):  # the reader went away (`| head`): stop quietly
        _silence_stdout()
        return OK
    if isinstance(exc, OSError) and (exc.filename or exc.errno in _OUTPUT_ERRNOS):
        # a path we were given cannot be opened, or an output cannot be written (`> /dev/full`)
        _silence_stdout()  # else the interpreter's last flush of stdout fails again, with a traceback
        _say(f"{prog}: error: {exc.filename or 'output'}: {exc.strerror or exc}")
        return BAD_INPUT
    if isinstance(exc, OSError):
        _say(f"{prog}: error: {exc.strerror or exc}")
        return FAILURE
    if os.environ.get("BC_DEBUG"):
        traceback.print_exception(exc)
    _say(f"{prog}: error: internal error: {type(exc).__name__}: {exc} (BC_DEBUG=1 shows the traceback)")
    return FAILURE


def _say(text: str) -> None:
    try:
        print(text, file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


def _silence_stdout() -> None:
    """Point stdout at /dev/null, dropping what is buffered, so nothing more is written where writing failed."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def run_guarded(fn: Callable[[], Any], prog: str, interrupted_note: str = "") -> int:
    """Call `fn()` with SIGTERM handled; return its exit code (an int result, else 0) or the error's."""
    stop_on_sigterm()
    try:
        result = fn()
    except SystemExit as exc:
        if isinstance(exc.code, str):  # sys.exit("message"): Python's own convention
            _say(exc.code)
        result = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except BaseException as exc:  # noqa: BLE001 — every error goes through the one mapping above
        return report(exc, prog, interrupted_note)
    try:
        _flush_stdout()  # a full disk shows here for small outputs, while the error path can still report it
    except BaseException as exc:  # noqa: BLE001
        return report(exc, prog, interrupted_note)
    return result if isinstance(result, int) else 0


def _flush_stdout() -> None:
    if sys.stdout is not None and not sys.stdout.closed:
        sys.stdout.flush()


class ExitPath:
    """The shared exit path of `BcCommand` and `BcGroup`: in standalone mode (a script) every error ends in
    `report()` and the documented code; with `standalone_mode=False` errors are raised as click does. Every
    help epilog ends with `EXIT_CODES_HELP`; `interrupted_note` (e.g. "rerun with --resume") follows
    "PROG: interrupted"."""

    def __init__(self, *args: Any, interrupted_note: str = "", **kwargs: Any) -> None:
        epilog = (kwargs.get("epilog") or "").rstrip()
        kwargs["epilog"] = f"{epilog}\n\n{EXIT_CODES_EPILOG}" if epilog else EXIT_CODES_EPILOG
        self.interrupted_note = interrupted_note
        super().__init__(*args, **kwargs)

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        try:
            return super().make_context(*args, **kwargs)  # type: ignore[misc]
        except BrokenPipeError as exc:  # `--help | head -c0`
            raise PipeClosed() from exc

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)  # type: ignore[misc]
        except BrokenPipeError as exc:
            raise PipeClosed() from exc

    def main(self, args: Any = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, **extra: Any) -> Any:
        run = super().main  # type: ignore[misc]
        if not standalone_mode:
            return run(args, prog_name, complete_var, standalone_mode=False, **extra)
        prog = prog_name or self.name or "bc"  # type: ignore[attr-defined]
        raise_open_file_limit()  # a soft limit of 1,024 descriptors is never why a run fails
        sys.exit(run_guarded(lambda: run(args, prog, complete_var, standalone_mode=False, **extra), prog,
                             self.interrupted_note))


class BcCommand(ExitPath, click.Command):
    """A click command with the shared exit path: `@click.command("bc-x", cls=BcCommand)`."""


class BcGroup(ExitPath, click.Group):
    """`BcCommand` for command groups (bc-toolserve); its subcommands are `BcCommand`s."""

    command_class = BcCommand
