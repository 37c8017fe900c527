"""One exit path (issue 24.1, 22.5): all six tools meet the same faults — a missing input, an unwritable output, a
broken pipe, SIGINT, SIGTERM, a full disk, a bad config — and answer with the same code and message shape,
`PROG: error: ...` or `PROG: interrupted...`, never a traceback. And no tool module keeps a private handler."""
from __future__ import annotations

import ast
import fcntl
import importlib.util
import os
import re
import signal
import socket
import subprocess
import sys
import termios
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

from bc_common.cli import EXIT_CODES_HELP

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
TOOLS = ("bc-gen", "bc-eval", "bc-filter", "bc-train", "bc-report", "bc-toolserve")
TRACEBACK = re.compile(rb"Traceback|Exception ignored|Fatal Python error")
HAS_REPORT_EXTRA = importlib.util.find_spec("numpy") is not None


def env() -> dict[str, str]:
    drop = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "BC_TOOLSERVE_TOKEN", "BC_DEBUG")
    return {k: v for k, v in os.environ.items() if k not in drop}


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> dict[str, Path]:
    """A task file, a trajectory file, a bad tool config, and a regular file standing where a folder must be."""
    root = tmp_path_factory.mktemp("faults")
    tasks = root / "tasks.jsonl"
    subprocess.run([str(BIN / "bc-gen"), "arithmetic", "-n", "6", "-o", str(tasks)], check=True, env=env(),
                   capture_output=True, timeout=120)
    runs = root / "runs.jsonl"
    subprocess.run([str(BIN / "bc-eval"), str(tasks), "--model", "builtin:reference", "-q", "-o", str(runs)],
                   check=True, env=env(), capture_output=True, timeout=120)
    bad = root / "bad_tools.yaml"
    bad.write_text("tools:\n  - class_name: bc_common.remote_tool.RemoteTool\n    confg: {}\n")
    (root / "a_file").write_text("not a folder\n")
    return {"tasks": tasks, "runs": runs, "bad_tools": bad, "file": root / "a_file", "root": root}


def skip_without_extra(prog: str) -> None:
    if prog == "bc-report" and not HAS_REPORT_EXTRA:
        pytest.skip("bc-report needs the report extra for these runs: pip install -e '.[report]'")


def run(prog: str, *args: str | Path, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL,
        timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / prog), *map(str, args)], stdout=stdout, stderr=subprocess.PIPE, stdin=stdin,
                          env=env(), timeout=timeout, cwd=ROOT)


def assert_error_shape(prog: str, proc: subprocess.CompletedProcess | subprocess.Popen, stderr: bytes, code: int,
                       *needles: str) -> None:
    text = stderr.decode(errors="replace")
    assert proc.returncode == code, text
    assert not TRACEBACK.search(stderr), text
    word = "interrupted" if code == 130 else "error: "
    lines = [line for line in text.splitlines() if line.startswith(f"{prog}: {word}")]
    assert lines, f"no '{prog}: {word}...' line in:\n{text}"
    for needle in needles:
        assert needle in lines[0], text


# one invocation per tool and fault; the paths are filled in from `data`
MISSING_INPUT = {
    "bc-gen": ["arithmetic", "-n", "3", "--exclude", "{missing}"],
    "bc-eval": ["{missing}", "--model", "builtin:reference"],
    "bc-filter": ["{missing}"],
    "bc-train": ["{missing}", "-o", "{root}/run-missing"],
    "bc-report": ["{missing}", "--format", "md"],
    "bc-toolserve": ["config", "{missing}", "--master-url", "http://127.0.0.1:8000"],
}
UNWRITABLE_OUTPUT = {  # an output under a regular file: no folder can be made there, root or not
    "bc-gen": ["arithmetic", "-n", "3", "-o", "{file}/out.jsonl"],
    "bc-eval": ["{tasks}", "--model", "builtin:reference", "-q", "-o", "{file}/out.jsonl"],
    "bc-filter": ["{runs}", "-o", "{file}/out.jsonl"],
    "bc-train": ["{tasks}", "-o", "{file}/run"],
    "bc-report": ["{runs}", "--format", "md", "-o", "{file}/report.md"],
    "bc-toolserve": ["master", "--port", "0", "--tools", "arithmetic", "--output-dir", "{file}/cfg"],
}
TO_STDOUT = {  # records (or a report, a config) on stdout; bc-train writes a folder, so its --help
    "bc-gen": ["arithmetic", "-n", "2000"],
    "bc-eval": ["{tasks}", "--model", "builtin:reference", "-q"],
    "bc-filter": ["{runs}"],
    "bc-train": ["--help"],
    "bc-report": ["{runs}", "--format", "md"],
    "bc-toolserve": ["config", "arithmetic", "--master-url", "http://127.0.0.1:8000"],
}
BAD_CONFIG = {
    "bc-gen": ["arithmetic", "-n", "3", "--set", "no_such_parameter=1"],
    "bc-eval": ["{tasks}", "--model", "builtin:reference", "--tool-config", "{bad_tools}"],
    "bc-filter": ["{runs}", "--where", "no operator here"],
    "bc-train": ["{tasks}", "-o", "{root}/run-bad", "--tool-config", "{bad_tools}"],
    "bc-report": ["{runs}", "--format", "md", "--compare", ","],
    "bc-toolserve": ["config", "{bad_tools}", "--master-url", "http://127.0.0.1:8000"],
}


def fill(args: list[str], data: dict[str, Path]) -> list[str]:
    names = {**{k: str(v) for k, v in data.items()}, "missing": str(data["root"] / "no_such_file.jsonl")}
    return [a.format(**names) for a in args]


@pytest.mark.parametrize("prog", TOOLS)
def test_a_missing_input_is_exit_2_naming_it(prog, data):
    skip_without_extra(prog)
    proc = run(prog, *fill(MISSING_INPUT[prog], data))
    assert_error_shape(prog, proc, proc.stderr, 2, "no_such_file.jsonl")


@pytest.mark.parametrize("prog", TOOLS)
def test_an_unwritable_output_is_exit_2_naming_it(prog, data):
    skip_without_extra(prog)
    proc = run(prog, *fill(UNWRITABLE_OUTPUT[prog], data))
    assert_error_shape(prog, proc, proc.stderr, 2, str(data["file"]))


@pytest.mark.parametrize("prog", TOOLS)
def test_a_full_disk_is_exit_2_with_one_line(prog, data):
    skip_without_extra(prog)
    with open("/dev/full", "wb") as full:
        proc = run(prog, *fill(TO_STDOUT[prog], data), stdout=full)
    assert_error_shape(prog, proc, proc.stderr, 2, "No space left on device")


@pytest.mark.parametrize("prog", [p for p in TOOLS if p not in ("bc-train", "bc-toolserve")])
def test_a_full_disk_named_by_o_is_exit_2_naming_it(prog, data):
    skip_without_extra(prog)
    args = fill(TO_STDOUT[prog], data) + ["-o", "/dev/full"]
    proc = run(prog, *args)
    assert_error_shape(prog, proc, proc.stderr, 2, "/dev/full", "No space left on device")


@pytest.mark.parametrize("prog", TOOLS)
def test_a_broken_pipe_stops_quietly_with_0(prog, data):
    skip_without_extra(prog)
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader went away before the first byte (`| head -c0`)
    try:
        proc = run(prog, *fill(TO_STDOUT[prog], data), stdout=write_end)
    finally:
        os.close(write_end)
    assert proc.returncode == 0 and not TRACEBACK.search(proc.stderr), proc.stderr.decode()
    assert b"error" not in proc.stderr, proc.stderr.decode()


@pytest.mark.parametrize("prog", TOOLS)
def test_a_bad_config_is_exit_2_with_one_line(prog, data):
    skip_without_extra(prog)
    proc = run(prog, *fill(BAD_CONFIG[prog], data))
    assert_error_shape(prog, proc, proc.stderr, 2)


def _pending(fd: int) -> int:
    """Bytes written to a pipe that its reader has not read yet."""
    return int.from_bytes(fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"), sys.byteorder)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _answers(url: str) -> bool:
    try:
        urllib.request.urlopen(url, timeout=1).close()
        return True
    except OSError as exc:
        return getattr(exc, "code", None) is not None  # an HTTP error status: the server is up


def _started(prog: str, data: dict[str, Path], tmp: Path) -> tuple[subprocess.Popen, Callable[[], bool]]:
    """A long-running invocation of `prog` and a test that says it is well under way (no fixed sleeps)."""
    def popen(*args: str | Path, stdin=subprocess.PIPE) -> subprocess.Popen:
        # a default SIGINT, as in a terminal (a CI shell without job control would start us with it ignored)
        return subprocess.Popen([str(BIN / prog), *map(str, args)], stdin=stdin, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, env=env(), cwd=ROOT,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))

    if prog == "bc-gen":
        proc = popen("arithmetic", "-n", "3000000", "-o", tmp / "big.jsonl", stdin=subprocess.DEVNULL)
        return proc, lambda: bool(list(tmp.glob(".*.tmp")))
    if prog == "bc-toolserve":
        port = _free_port()
        proc = popen("master", "--port", str(port), stdin=subprocess.DEVNULL)
        return proc, lambda: _answers(f"http://127.0.0.1:{port}/health")
    args = {"bc-eval": ["-", "--model", "builtin:reference", "-q", "-o", tmp / "out.jsonl"],
            "bc-filter": ["-", "--best-per-task", "-o", tmp / "out.jsonl"],
            "bc-train": ["-", "-o", tmp / "run"],
            "bc-report": ["-", "--format", "md", "-o", tmp / "report.md"]}[prog]
    proc = popen(*args)
    line = (data["tasks"] if prog in ("bc-eval", "bc-train") else data["runs"]).read_bytes().splitlines()[0]
    assert proc.stdin is not None
    proc.stdin.write(line + b"\n")
    proc.stdin.flush()  # stdin stays open: the tool waits for more, well inside its work
    return proc, lambda: _pending(proc.stdin.fileno()) == 0


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("prog", TOOLS)
def test_an_interrupt_is_exit_130_with_one_line(prog, signum, data, tmp_path):
    skip_without_extra(prog)
    proc, started = _started(prog, data, tmp_path)
    try:
        deadline = time.monotonic() + 90
        while not started() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
        time.sleep(0.3)  # past the moment it noticed: reading, writing or serving
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert_error_shape(prog, proc, err, 130)
    assert not list(tmp_path.glob(".*.tmp")), "a temp file was left behind"


# --- no private exit paths ---------------------------------------------------------------------------------

TOOL_PACKAGES = [ROOT / f"{tool}" / tool.replace("-", "_") for tool in ("bc-common", *TOOLS)]
THE_EXIT_PATH = ROOT / "bc-common" / "bc_common" / "cli.py"
CAUGHT_BY_THE_EXIT_PATH = {"BaseException", "KeyboardInterrupt", "SystemExit"}


def private_exit_paths(source: str, name: str = "<source>") -> list[str]:
    """Places in `source` that would make a second exit path: a signal handler installed, an interrupt or
    BaseException caught and not raised again, sys.exit / os._exit outside `if __name__ == "__main__"` (a
    `__main__.py` is such a block as a whole)."""
    tree = ast.parse(source)
    if name.endswith("__main__.py"):
        tree = ast.Module(body=[ast.If(test=ast.parse("__name__ == '__main__'").body[0].value, body=tree.body,
                                       orelse=[])], type_ignores=[])
    found = []
    main_blocks = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If) and "__main__" in ast.unparse(node.test)
                   for n in ast.walk(node)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            called = ast.unparse(node.func)
            if called.endswith(("signal.signal", "add_signal_handler", "signal.set_wakeup_fd")):
                found.append(f"{name}:{node.lineno}: installs a signal handler ({called})")
            if called in ("sys.exit", "os._exit", "exit", "quit") and id(node) not in main_blocks:
                found.append(f"{name}:{node.lineno}: exits on its own ({called}); return the code or raise")
        if isinstance(node, ast.ExceptHandler):
            caught = {ast.unparse(n).split(".")[-1] for n in ast.walk(node.type)} if node.type else {"BaseException"}
            reraises = node.body and isinstance(node.body[-1], ast.Raise) and node.body[-1].exc is None
            if caught & CAUGHT_BY_THE_EXIT_PATH and not reraises:
                found.append(f"{name}:{node.lineno}: catches {', '.join(sorted(caught & CAUGHT_BY_THE_EXIT_PATH))} "
                             "without raising it again")
    return found


def test_no_tool_module_keeps_a_private_exit_path():
    found = []
    for package in TOOL_PACKAGES:
        for path in sorted(package.rglob("*.py")):
            if path != THE_EXIT_PATH:
                found += private_exit_paths(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    assert found == []


@pytest.mark.parametrize("snippet", [
    "import signal\nsignal.signal(signal.SIGTERM, signal.default_int_handler)\n",
    "loop.add_signal_handler(15, stop)\n",
    "try:\n    run()\nexcept KeyboardInterrupt:\n    print('bye')\n",
    "try:\n    run()\nexcept BaseException as exc:\n    report(exc)\n",
    "try:\n    run()\nexcept (OSError, SystemExit):\n    pass\n",
    "try:\n    run()\nexcept:\n    pass\n",
    "import sys\ndef main():\n    sys.exit(3)\n",
])
def test_the_check_finds_a_private_handler(snippet):
    assert private_exit_paths(snippet)


def test_the_check_allows_cleanup_that_raises_again():
    assert private_exit_paths("try:\n    run()\nexcept BaseException:\n    cleanup()\n    raise\n"
                              "if __name__ == '__main__':\n    import sys\n    sys.exit(main())\n") == []


# --- one table of exit codes -------------------------------------------------------------------------------

def _help(prog: str, *args: str) -> str:
    return re.sub(r"\s+", " ", run(prog, *args, "--help").stdout.decode())


@pytest.mark.parametrize("command", [*TOOLS, "bc-toolserve master", "bc-toolserve worker", "bc-toolserve unified",
                                     "bc-toolserve config", "bc-toolserve mcp"])
def test_every_help_ends_with_the_one_exit_code_table(command):
    prog, *sub = command.split()
    assert _help(prog, *sub).rstrip().endswith(EXIT_CODES_HELP)


def test_the_readme_quotes_the_exit_code_table():
    assert EXIT_CODES_HELP in (ROOT / "README.md").read_text(encoding="utf-8")
    assert "3 bc-train --check: verl is not installed" in EXIT_CODES_HELP
