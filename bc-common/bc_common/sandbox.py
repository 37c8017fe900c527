"""Run model-written code in a sandbox: bubblewrap namespaces plus resource limits, the whole tree reaped.

    box = sandbox_for()                       # bubblewrap, or SandboxUnavailable naming the install step
    result = await box.run(["python3", "-c", "print(1)"], workspace=Path("ws"), limits=Limits(wall_s=5))
    result.stdout, result.exit_code, result.as_dict()   # the row records box.describe(limits) beside it

Per run under bubblewrap: new user, pid, network, ipc, uts and cgroup namespaces (no network at all: even a
loopback connection to the host fails), a read-only view of the system and of this Python's own prefix (not the
project, not /etc, not /root), a private writable workspace at /workspace, a fresh /tmp, limits on CPU time,
address space, processes, file size and open files, a cap on the output kept, and a wall-clock timeout that kills
the whole tree (the pid namespace dies with its first process). When the harness runs as root, every run also gets
its own unprivileged uid from a pool (locked across processes), so the process limit is real (root ignores
RLIMIT_NPROC) and the reaping check can prove that no process of the run is left.

Without bubblewrap, code does not run: `SandboxUnavailable` (exit 2) says how to install it. `BC_SANDBOX=none`
opts in to running with resource limits only; every result then says `sandbox: none` and `unsandboxed: true`.
"""
from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from .errors import GraderUnavailable

T = TypeVar("T")

INSTALL_HINT = ("install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap; "
                "Arch: pacman -S bubblewrap), or set BC_SANDBOX=none to run model code with resource limits only "
                "(no isolation: every row then records unsandboxed: true)")
UID_POOL = range(610_000, 610_512)  # uids the root harness hands to runs (no passwd entry needed)
READ_ONLY_SYSTEM = ("/usr", "/bin", "/lib", "/lib64", "/lib32", "/sbin")
# Debian's awk, which and friends are links through here: links only, no host data (the rest of /etc stays out)
READ_ONLY_LINKS = ("/etc/alternatives",)
SANDBOX_PATH = "/usr/local/bin:/usr/bin:/bin"
CONCURRENCY_ENV = "BC_SANDBOX_CONCURRENCY"  # runs at once in this process (bc-toolserve worker --sandbox-concurrency)


class SandboxUnavailable(GraderUnavailable):
    """No sandbox can run here (bubblewrap missing or refused by the kernel) and none was opted out of."""

    exit_code = 2


class SandboxFailed(GraderUnavailable):
    """A run could not be started, here and after retries (no file descriptor, no process, no memory to fork): the
    harness's fault, never the code's, so it is not a result of the code."""


class _NotStarted(Exception):
    """The run's process was never started (safe to try again: nothing of the code ran)."""


# pauses between tries to start a run that failed to start (a transient EMFILE, EAGAIN or ENOMEM)
START_RETRY_PAUSES_S = (0.05, 0.25, 1.0)
# runs a verifier makes of a graded answer when the wall clock cuts one (not its CPU limit: that kills a busy loop
# long before): a run that slept, or a machine too loaded to run it, gets one more try on fresh state before the
# timeout counts, so load never fails a correct answer (function_runner, sql_runner, shell_workspace)
WALL_CLOCK_TRIES = 2


@dataclass(frozen=True)
class Limits:
    """What one run may use. Output beyond `output_bytes` (per stream) is dropped with a marker and stops the run
    once it passes `kill_output_bytes` in all."""

    cpu_s: int = 10
    wall_s: float = 20.0
    memory_mb: int = 1024
    processes: int = 64
    file_size_mb: int = 32
    open_files: int = 256
    output_bytes: int = 64 * 1024
    kill_output_bytes: int = 8 * 1024 * 1024

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0 \
                    or value != value or value == float("inf"):
                raise ValueError(f"sandbox limit {name} must be a finite positive number, got {value!r}")


@dataclass
class RunResult:
    """What a run did. `exit_code` is None when a signal ended it (`signal` names it)."""

    stdout: str
    stderr: str
    exit_code: int | None
    signal: str | None = None
    timed_out: bool = False
    output_truncated: bool = False
    duration_s: float = 0.0
    sandbox: str = ""
    leftover_processes: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and not self.timed_out

    def status_line(self) -> str:
        """`exit 0`, `killed by SIGKILL`, `timed out after 2.0 s`: how a tool reports the end of a run."""
        if self.timed_out:
            return f"timed out after {self.duration_s:.1f} s"
        if self.exit_code is None:
            return f"killed by {self.signal}"
        return f"exit {self.exit_code}"

    def as_dict(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if k != "extra"} | self.extra


class Sandbox:
    """Runs argv in a workspace under limits. Subclasses say how the process is wrapped."""

    name = "none"
    isolated = False

    def describe(self, limits: Limits) -> dict[str, Any]:
        """What a record stores about the sandbox that ran it."""
        return {"sandbox": self.name, "unsandboxed": not self.isolated, "limits": asdict(limits)}

    async def run(self, argv: Sequence[str], *, workspace: Path, limits: Limits = Limits(), stdin: bytes = b"",
                  env: Mapping[str, str] | None = None, read_only: Sequence[tuple[str, str]] = ()) -> RunResult:
        """Run `argv` with `workspace` as its working directory (and /workspace inside a sandbox); `read_only`
        binds extra host paths (host, inside) read-only. Never raises for what the code does."""
        workspace = Path(workspace).resolve()
        if os.geteuid() == 0 and not _reachable(workspace.parent):  # the workspace itself is handed to the run
            raise SandboxUnavailable(f"the workspace {workspace} is out of reach of the run's user (a folder above "
                                     "it lets no one else in): make it with bc_common.sandbox.workspace()")
        for pause in (*START_RETRY_PAUSES_S, None):
            try:
                return await self._run_once(argv, workspace, limits, stdin, env, read_only)
            except OSError as exc:  # the harness's own file or process calls, after the start: not the code's doing
                raise SandboxFailed(f"a sandboxed run failed in the harness: {type(exc).__name__}: {exc}"
                                    f"{_fd_hint(exc)}") from exc
            except _NotStarted as exc:
                if pause is None:
                    cause = exc.__cause__ or exc
                    raise SandboxFailed(f"could not start a sandboxed run after {len(START_RETRY_PAUSES_S) + 1} "
                                        f"tries: {type(cause).__name__}: {cause}{_fd_hint(cause)}") from cause
                await asyncio.sleep(pause)
        raise AssertionError("unreachable")

    async def _run_once(self, argv: Sequence[str], workspace: Path, limits: Limits, stdin: bytes,
                        env: Mapping[str, str] | None, read_only: Sequence[tuple[str, str]]) -> RunResult:
        async with _slot(), _uid_claimed() as uid:
            fds: list[int] = []
            try:
                try:
                    if uid is not None:
                        _hand_over(workspace, uid)
                    # bubblewrap runs as the run's uid, which may not reach the paths (a root-only parent folder):
                    # it binds them through descriptors the harness opened
                    if self.isolated:
                        for path in [workspace, *(h for h, _ in read_only)]:
                            fds.append(os.open(path, os.O_PATH | os.O_CLOEXEC))
                except OSError as exc:
                    raise _NotStarted() from exc
                command = self.wrap(list(argv), workspace, dict(env or {}), read_only, fds)
                started = time.perf_counter()
                result = await _execute(command, stdin, limits, uid, cwd=workspace if not fds else Path("/"),
                                        env=self.process_env(workspace, dict(env or {})), pass_fds=fds)
            except _NotStarted:  # nothing ran: the workspace is the caller's again, for the next try
                if uid is not None:
                    _hand_back(workspace)
                raise
            finally:
                for fd in fds:
                    os.close(fd)
            result.duration_s = round(time.perf_counter() - started, 4)
            result.sandbox = self.name
            result.leftover_processes = _reap(uid) if uid is not None else 0
            if uid is not None:
                _hand_back(workspace)
        if not self.isolated:
            result.extra["unsandboxed"] = True
        return result

    def wrap(self, argv: list[str], workspace: Path, env: dict[str, str],
             read_only: Sequence[tuple[str, str]], fds: Sequence[int] = ()) -> list[str]:
        return argv

    def process_env(self, workspace: Path, env: dict[str, str]) -> dict[str, str]:
        """The environment the started process gets: never the harness's own (it may hold API keys)."""
        return {"PATH": _sandbox_path(), "HOME": str(workspace), "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1",
                "PYTHONHASHSEED": "0"} | env


    def run_blocking(self, argv: Sequence[str], **kwargs: Any) -> RunResult:
        """`run` for synchronous callers (a verifier): blocks until the run ends, also inside a running loop."""
        return run_blocking(self.run(argv, **kwargs))


class Unsandboxed(Sandbox):
    """Resource limits only (the explicit `BC_SANDBOX=none` opt-in): the code sees the host."""

    name = "none"
    isolated = False


class Bubblewrap(Sandbox):
    """bubblewrap: namespaces, a read-only system, /workspace and a fresh /tmp."""

    isolated = True

    def __init__(self, binary: str):
        self.binary = binary
        self.version = _version(binary)
        self.name = f"bubblewrap {self.version}".strip()

    def wrap(self, argv: list[str], workspace: Path, env: dict[str, str],
             read_only: Sequence[tuple[str, str]], fds: Sequence[int] = ()) -> list[str]:
        """bwrap's command line; `fds` are open descriptors of the workspace and of each `read_only` host path."""
        cmd = [self.binary, "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
               "--hostname", "sandbox", "--clearenv"]
        for path in READ_ONLY_SYSTEM:
            if os.path.isdir(path):
                cmd += ["--ro-bind", path, path] if not os.path.islink(path) else ["--symlink", os.readlink(path), path]
        for path in READ_ONLY_LINKS:
            if os.path.isdir(path):
                cmd += ["--ro-bind", path, path]
        prefix = _harness_prefix()
        if prefix and not any(prefix == p or prefix.startswith(p + "/") for p in READ_ONLY_SYSTEM):
            cmd += ["--ro-bind", prefix, prefix]  # the harness's own interpreter and stdlib, read-only
        cmd += ["--proc", "/proc", "--dev", "/dev", "--size", str(64 << 20), "--tmpfs", "/tmp",
                "--bind-fd", str(fds[0]), "/workspace", "--chdir", "/workspace"]
        for fd, (_, inside) in zip(fds[1:], read_only, strict=True):
            cmd += ["--ro-bind-fd", str(fd), inside]
        cmd += ["--remount-ro", "/"]  # the root bwrap builds is a tmpfs: only /workspace and /tmp stay writable
        base = {"PATH": _sandbox_path(), "HOME": "/workspace", "LANG": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1",
                "PYTHONHASHSEED": "0", "TMPDIR": "/tmp"}
        for key, value in (base | env).items():
            cmd += ["--setenv", key, value]
        return [*cmd, "--", *argv]

    def process_env(self, workspace: Path, env: dict[str, str]) -> dict[str, str]:
        return {"PATH": os.environ.get("PATH", SANDBOX_PATH), "LANG": "C.UTF-8"}  # bwrap itself; --clearenv inside


def python_executable() -> str:
    """The Python that sandboxed code runs on: the harness's own where the run's user can reach it, else the
    system's python3 (a root harness lends runs a uid that cannot read /root, where pyenv and conda live)."""
    if _harness_prefix():
        return str(Path(sys.base_prefix) / "bin" / "python3")
    for candidate in ("/usr/bin/python3", "/usr/local/bin/python3", "/bin/python3"):
        if os.path.exists(candidate):
            return candidate
    raise SandboxUnavailable(f"no Python that a sandboxed run can reach: {sys.base_prefix} is private to root and "
                             "there is no /usr/bin/python3 (install python3 from the system's packages)")


def _harness_prefix() -> str | None:
    """This Python's prefix when every folder above it lets others in (or the harness is not root), else None."""
    prefix = sys.base_prefix
    return prefix if os.geteuid() != 0 or _reachable(Path(prefix)) else None


def _reachable(path: Path) -> bool:
    """Whether a user other than the owner may pass through every folder above `path` (and into it)."""
    for folder in [path, *path.parents]:
        try:
            if not folder.stat().st_mode & 0o001:
                return False
        except OSError:
            return False
    return True


@contextlib.contextmanager
def workspace(prefix: str = "bc-run-") -> Iterator[Path]:
    """A fresh, empty workspace that a run's user can reach, removed with whatever the runs left in it.

    >>> with workspace() as folder:
    ...     result = box.run_blocking(["ls"], workspace=folder)
    """
    path = make_workspace(prefix)
    try:
        yield path
    finally:
        remove_workspace(path)


def make_workspace(prefix: str = "bc-run-") -> Path:
    """A fresh, empty workspace that a run's user can reach (remove it with `remove_workspace`)."""
    return Path(tempfile.mkdtemp(prefix=prefix, dir=_work_root()))


def remove_workspace(path: Path) -> None:
    """Remove a workspace and whatever the runs left in it, never following a symlink they planted."""
    try:
        shutil.rmtree(path, ignore_errors=True)
    except RecursionError:  # folders nested deeper than Python recurses: GNU rm walks them without recursing
        subprocess.run(["rm", "-rf", "--one-file-system", "--", str(path)], capture_output=True, check=False)


def _work_root() -> Path:
    """The folder of workspaces: the temp folder itself, or (as root) a root-owned 0711 folder in it, so a run's
    uid reaches its own workspace and cannot list the others."""
    base = Path(tempfile.gettempdir())
    if os.geteuid() != 0:
        return base
    root = base / "bc-sandbox-work"
    with contextlib.suppress(FileExistsError):
        root.mkdir(mode=0o711)
    info = root.lstat()
    if not root.is_dir() or root.is_symlink() or info.st_uid != 0:
        raise SandboxUnavailable(f"{root} is not a root-owned folder: remove it and run again")
    os.chmod(root, 0o711)
    if not _reachable(root):
        raise SandboxUnavailable(f"{base} lets no other user in, so sandboxed runs cannot reach their workspace: "
                                 "set TMPDIR to a folder like /tmp")
    return root


def _sandbox_path() -> str:
    prefix = _harness_prefix()
    return f"{Path(prefix) / 'bin'}:{SANDBOX_PATH}" if prefix else SANDBOX_PATH


def sandbox_for(choice: str | None = None) -> Sandbox:
    """The sandbox to use: `choice` or `$BC_SANDBOX` (`bubblewrap`, the default, or `none`). Raises
    SandboxUnavailable naming the install step when bubblewrap is missing or cannot create namespaces here."""
    choice = (choice or os.environ.get("BC_SANDBOX") or "bubblewrap").strip().lower()
    if choice in ("none", "unsandboxed", "off"):
        return Unsandboxed()
    if choice not in ("bubblewrap", "bwrap", "auto"):
        raise SandboxUnavailable(f"BC_SANDBOX={choice!r}: choose bubblewrap or none")
    return _bubblewrap()


_CHECKED: dict[str, Bubblewrap] = {}


def _bubblewrap() -> Bubblewrap:
    binary = shutil.which("bwrap")
    if binary is None:
        raise SandboxUnavailable(f"model code needs a sandbox and bubblewrap (bwrap) is not on PATH: {INSTALL_HINT}")
    if binary not in _CHECKED:
        probe = subprocess.run([binary, "--unshare-all", "--ro-bind", "/", "/", "--", "true"],
                               capture_output=True, text=True, timeout=30)
        if probe.returncode != 0:
            reason = (probe.stderr or "").strip().splitlines()[-1:] or ["unknown reason"]
            raise SandboxUnavailable(f"bubblewrap cannot create namespaces here ({reason[0]}); unprivileged user "
                                     "namespaces may be disabled (sysctl kernel.unprivileged_userns_clone=1), "
                                     f"or {INSTALL_HINT.split(', or ', 1)[1]}")
        _CHECKED[binary] = Bubblewrap(binary)
    return _CHECKED[binary]


def _version(binary: str) -> str:
    try:
        out = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return ""
    return out.strip().rpartition(" ")[2]


async def retry_wall_clock_cut(attempt: Callable[[], Awaitable[T]],
                                cut: Callable[[T], bool] = lambda result: result.timed_out) -> T:
    """`attempt()` (one run on fresh state: a new workspace, a read-only input) until a run is not cut by the wall
    clock, WALL_CLOCK_TRIES runs at most; the last one's result. `cut` says whether a result was cut."""
    for _ in range(WALL_CLOCK_TRIES - 1):
        result = await attempt()
        if not cut(result):
            return result
    return await attempt()


def run_blocking(coro: Coroutine[Any, Any, Any]) -> Any:
    """Run a coroutine to its end from synchronous code, in a thread of its own when a loop already runs here
    (a verifier called from bc-eval's rollout loop)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return _run_to_end(coro)

    def unthrottled() -> Any:
        # the caller's loop is blocked until this returns, so runs it started may hold every slot: waiting for
        # one here would never end
        _LOCAL.unthrottled = True
        return _run_to_end(coro)

    with ThreadPoolExecutor(1, thread_name_prefix="bc-sandbox") as pool:
        try:
            future = pool.submit(unthrottled)
        except RuntimeError as exc:  # "can't start new thread"
            coro.close()
            raise SandboxFailed(f"no thread for a sandboxed run: {exc}") from exc
        return future.result()


def _run_to_end(coro: Coroutine[Any, Any, Any]) -> Any:
    """asyncio.run, except that an event loop the system cannot make (no descriptor left) is SandboxFailed."""
    try:
        loop = asyncio.new_event_loop()
    except OSError as exc:
        coro.close()
        raise SandboxFailed(f"no event loop for a sandboxed run: {exc}{_fd_hint(exc)}") from exc
    with asyncio.Runner(loop_factory=lambda: loop) as runner:
        return runner.run(coro)


def _fd_hint(exc: BaseException) -> str:
    return " (raise the open-file limit: ulimit -n)" if getattr(exc, "errno", None) in (errno.EMFILE,
                                                                                          errno.ENFILE) else ""


# -- concurrency: at most N runs at once in this process --------------------------------------------------------

_SLOTS: list[threading.BoundedSemaphore] = []  # one semaphore, made on first use
_SLOTS_SIZE: list[int] = []
_SLOTS_LOCK = threading.Lock()


def set_concurrency(runs: int) -> None:
    """At most `runs` sandboxed runs at once in this process (later runs wait for a slot)."""
    if isinstance(runs, bool) or not isinstance(runs, int) or runs < 1:
        raise ValueError(f"sandbox concurrency must be a positive integer, got {runs!r}")
    with _SLOTS_LOCK:
        _SLOTS[:] = [threading.BoundedSemaphore(runs)]
        _SLOTS_SIZE[:] = [runs]


def concurrency() -> int:
    """How many runs may go at once here: `set_concurrency`, else `$BC_SANDBOX_CONCURRENCY`, else 4 per CPU."""
    with _SLOTS_LOCK:
        if not _SLOTS:
            raw = os.environ.get(CONCURRENCY_ENV, "").strip()
            try:
                runs = int(raw) if raw else 4 * (os.cpu_count() or 1)
            except ValueError:
                raise SandboxUnavailable(f"{CONCURRENCY_ENV}={raw!r}: give a positive integer") from None
            if runs < 1:
                raise SandboxUnavailable(f"{CONCURRENCY_ENV}={raw!r}: give a positive integer")
            _SLOTS.append(threading.BoundedSemaphore(runs))
            _SLOTS_SIZE.append(runs)
        return _SLOTS_SIZE[0]


_LOCAL = threading.local()


@contextlib.asynccontextmanager
async def _slot() -> Any:
    if getattr(_LOCAL, "unthrottled", False):
        yield
        return
    concurrency()
    slots = _SLOTS[0]
    if not slots.acquire(blocking=False):  # wait in a thread: the slots are shared by every loop of the process
        waiter = asyncio.ensure_future(asyncio.to_thread(slots.acquire))
        try:
            await asyncio.shield(waiter)
        except asyncio.CancelledError:  # the slot still comes; hand it straight back
            waiter.add_done_callback(lambda _: slots.release())
            raise
    try:
        yield
    finally:
        slots.release()


@contextlib.asynccontextmanager
async def _uid_claimed() -> Any:
    with contextlib.ExitStack() as stack:
        try:
            uid = stack.enter_context(_claim_uid())
        except OSError as exc:  # no descriptor for the lock file or /proc: nothing started yet
            raise _NotStarted() from exc
        yield uid


# -- running ---------------------------------------------------------------------------------------------------

async def _execute(command: list[str], stdin: bytes, limits: Limits, uid: int | None, *, cwd: Path,
                   env: dict[str, str], pass_fds: Sequence[int] = ()) -> RunResult:
    def limit_child() -> None:  # runs in the child between fork and exec
        os.setsid()
        for which, value in ((resource.RLIMIT_CPU, limits.cpu_s), (resource.RLIMIT_AS, limits.memory_mb << 20),
                             (resource.RLIMIT_FSIZE, limits.file_size_mb << 20), (resource.RLIMIT_CORE, 0),
                             (resource.RLIMIT_NOFILE, limits.open_files)):
            hard = resource.getrlimit(which)[1]  # a limit may only be lowered: the harness's own hard one wins
            value = int(value) if hard == resource.RLIM_INFINITY else min(int(value), hard)
            resource.setrlimit(which, (value, value))
        if uid is not None:
            resource.setrlimit(resource.RLIMIT_NPROC, (limits.processes, limits.processes))
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)

    try:
        process = await asyncio.create_subprocess_exec(
            *command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=str(cwd),
            preexec_fn=limit_child, env=env, pass_fds=tuple(pass_fds))
    except (OSError, subprocess.SubprocessError) as exc:  # no pipe, no fork, or the limits could not be set
        raise _NotStarted() from exc
    budget = _OutputBudget(limits)
    readers = [asyncio.ensure_future(budget.drain(process.stdout, 0, process)),
               asyncio.ensure_future(budget.drain(process.stderr, 1, process)),
               asyncio.ensure_future(_feed(process, stdin))]
    timed_out = False
    try:
        await asyncio.wait_for(process.wait(), timeout=limits.wall_s)
    except asyncio.TimeoutError:
        timed_out = True
    finally:
        _kill_tree(process)
        await process.wait()
        await asyncio.gather(*readers, return_exceptions=True)
    code = process.returncode
    name = signal.Signals(-code).name if code is not None and code < 0 else None
    if code is not None and code > 128 and command[0].endswith("bwrap"):  # bwrap reports the child's signal
        with contextlib.suppress(ValueError):
            name = signal.Signals(code - 128).name
    if budget.flooded and name is None:
        name = "SIGKILL"  # ended for its output (bwrap may report the child's death as a plain exit status)
    return RunResult(stdout=budget.text(0), stderr=budget.text(1), exit_code=None if name else code, signal=name,
                     timed_out=timed_out, output_truncated=budget.truncated)


async def _feed(process: asyncio.subprocess.Process, data: bytes) -> None:
    assert process.stdin is not None
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        if data:
            process.stdin.write(data)
            await process.stdin.drain()
        process.stdin.close()


class _OutputBudget:
    """Keeps the first `output_bytes` of each stream; past `kill_output_bytes` in all, ends the run."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.kept = [bytearray(), bytearray()]
        self.dropped = [0, 0]
        self.flooded = False  # the run was ended for its output

    @property
    def truncated(self) -> bool:
        return any(self.dropped)

    async def drain(self, stream: asyncio.StreamReader | None, which: int, process: Any) -> None:
        if stream is None:
            return
        while chunk := await stream.read(65536):
            room = self.limits.output_bytes - len(self.kept[which])
            self.kept[which] += chunk[:max(room, 0)]
            self.dropped[which] += max(len(chunk) - max(room, 0), 0)
            if sum(self.dropped) + sum(map(len, self.kept)) > self.limits.kill_output_bytes:
                self.flooded = True
                _kill_tree(process)

    def text(self, which: int) -> str:
        body = self.kept[which].decode("utf-8", errors="replace")
        if self.dropped[which]:
            body += f"\n[... output truncated: {self.dropped[which]} more bytes]"
        return body


def _kill_tree(process: Any) -> None:
    """SIGKILL the run's process group; under bubblewrap the pid namespace then takes every process with it."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError):
        process.kill()


# -- uids: a fresh unprivileged one per run when the harness is root --------------------------------------------

@contextlib.contextmanager
def _claim_uid() -> Iterator[int | None]:
    """An unused uid of the pool, held by a lock file for the run (across processes); None unless root."""
    if os.geteuid() != 0:
        yield None
        return
    folder = Path(tempfile.gettempdir()) / "bc-sandbox-uids"
    folder.mkdir(mode=0o700, exist_ok=True)
    # a uid that still owns any process, a zombie its parent has not waited for included, is passed over: the
    # kernel counts those against the run's process limit, and bwrap's first fork would fail ("Can't fork")
    occupied = _uids_in_use()
    for uid in (u for u in UID_POOL if u not in occupied):
        handle = open(folder / f"{uid}.lock", "a+b")  # noqa: SIM115  (held for the run)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            continue
        try:
            _reap(uid, grace_s=0)  # a run of a killed harness may have left processes under this uid
            yield uid
        finally:
            handle.close()
        return
    raise SandboxUnavailable(f"more than {len(UID_POOL)} sandboxed runs at once on this machine")


def _hand_over(workspace: Path, uid: int) -> None:
    """Give the run's uid the workspace (the harness keeps reading it as root)."""
    os.chown(workspace, uid, uid)
    for root, dirs, files in os.walk(workspace):
        for name in dirs + files:
            with contextlib.suppress(FileNotFoundError):
                os.chown(os.path.join(root, name), uid, uid, follow_symlinks=False)


def _hand_back(workspace: Path) -> None:
    with contextlib.suppress(OSError):
        os.chown(workspace, 0, 0)


def _reap(uid: int, grace_s: float = 1.0) -> int:
    """Wait up to `grace_s` for the run's processes to go (its pid namespace is being torn down), then kill what
    is left of `uid`; return how many were left (0 after a clean run: the proof that nothing stays running)."""
    deadline = time.monotonic() + grace_s
    while (pids := _processes_of(uid)) and time.monotonic() < deadline:
        time.sleep(0.005)
    left = len(pids)
    for _ in range(100):
        if not pids:
            break
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.01)
        pids = _processes_of(uid)
    return left


def _processes_of(uid: int) -> list[int]:
    """Live processes of `uid` (zombies, already dead and waiting for their parent, are not counted)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and _owner(int(entry)) == uid:
            try:
                state = Path(f"/proc/{entry}/stat").read_text().rpartition(")")[2].split()[0]
            except (OSError, IndexError):
                continue
            if state not in ("Z", "X"):
                found.append(int(entry))
    return found


def _uids_in_use() -> set[int]:
    """The uids that own a process now, zombies included."""
    return {uid for entry in os.listdir("/proc") if entry.isdigit() and (uid := _owner(int(entry))) is not None}


def _owner(pid: int) -> int | None:
    try:
        return os.stat(f"/proc/{pid}").st_uid
    except OSError:
        return None
