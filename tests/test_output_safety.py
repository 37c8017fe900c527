"""Nothing a tool writes lands on a file it reads or another file it writes (through symlinks and hard links), a
second writer of an output is refused while the first runs (and not after a kill -9), and temp files a killed run
left are cleaned by the next run (issue 22, items 1, 2 and 4). Real processes, real files."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent


def run(*args: object, stdin: bytes = b"", timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / str(args[0])), *map(str, args[1:])], input=stdin, capture_output=True,
                          timeout=timeout)


def start(*args: object) -> subprocess.Popen:
    """A tool started with stdin kept open: it holds its output's lock until stdin is closed."""
    return subprocess.Popen([str(BIN / str(args[0])), *map(str, args[1:])], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def wait_for(path: Path, proc: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        assert proc.poll() is None, proc.stderr.read().decode()
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.02)


@pytest.fixture(scope="module")
def tasks(tmp_path_factory) -> bytes:
    return run("bc-gen", "arithmetic", "-n", "4").stdout


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def alias(target: Path, kind: str) -> Path:
    """`target` itself, or a symlink / hard link to it made beside it (a symlink may point at no file yet)."""
    if kind == "same":
        return target
    link = target.with_name(f"{kind}-{target.name}")
    if kind == "symlink":
        link.symlink_to(target)
    else:
        os.link(target, link)
    return link


# item 1: every case the issue lists, by name, symlink and hard link
@pytest.mark.parametrize("kind", ["same", "symlink", "hardlink"])
@pytest.mark.parametrize("flag, target", [("--summary", "in.jsonl"), ("--summary", "o.jsonl"),
                                          ("--summary-csv", "in.jsonl"), ("--summary-csv", "o.jsonl.meta.json")])
def test_bc_eval_refuses_a_summary_over_a_file_it_reads_or_writes(tmp_path, tasks, flag, target, kind):
    (tmp_path / "in.jsonl").write_bytes(tasks)
    out = tmp_path / "o.jsonl"
    if kind == "hardlink" or target == "o.jsonl.meta.json":  # a hard link needs the file; so does a rerun's meta
        assert run("bc-eval", tmp_path / "in.jsonl", "-o", out, "--model", "builtin:reference", "-q").returncode == 0
    path = alias(tmp_path / target, kind)
    before = snapshot(tmp_path)
    proc = run("bc-eval", tmp_path / "in.jsonl", "-o", out, "--model", "builtin:reference", flag, path)
    assert proc.returncode == 2, proc.stderr
    err = proc.stderr.decode()
    assert err.startswith("bc-eval: error: ") and flag in err and str(path) in err, err
    other = "TASKS" if target == "in.jsonl" else "-o"
    assert other in err or "run settings of -o" in err, err
    assert snapshot(tmp_path) == before  # nothing touched, nothing created


@pytest.mark.parametrize("flag, writes", [("--verify-correction-kwargs", "-o"), ("--api-extra-params", "-o"),
                                          ("--verify-correction-kwargs", "--summary"),
                                          ("--api-extra-params", "--summary-csv")])
def test_bc_eval_refuses_to_write_over_an_at_file_it_reads(tmp_path, tasks, flag, writes):
    """`--verify-correction-kwargs @k.json -o k.json` would replace the kwargs with trajectories."""
    (tmp_path / "in.jsonl").write_bytes(tasks)
    kwargs = tmp_path / "k.json"
    kwargs.write_text('{"format_score": 0}' if flag == "--verify-correction-kwargs" else '{"temperature": 0}')
    args = ["-o", tmp_path / "o.jsonl"] if writes != "-o" else []
    before = snapshot(tmp_path)
    proc = run("bc-eval", tmp_path / "in.jsonl", "--model", "builtin:reference", flag, f"@{kwargs}", *args,
               writes, kwargs)
    assert proc.returncode == 2, proc.stderr
    err = proc.stderr.decode()
    assert f"{flag} @FILE" in err and writes in err and str(kwargs) in err, err
    assert snapshot(tmp_path) == before


def test_bc_eval_refuses_stdout_appended_to_its_stdin(tmp_path, tasks):
    src = tmp_path / "in.jsonl"
    src.write_bytes(tasks)
    with open(src, "rb") as stdin, open(src, "ab") as stdout:
        proc = subprocess.run([str(BIN / "bc-eval"), "--model", "builtin:reference"], stdin=stdin, stdout=stdout,
                              stderr=subprocess.PIPE, timeout=60)
    assert proc.returncode == 2 and b"<stdout>" in proc.stderr and b"<stdin>" in proc.stderr
    assert src.read_bytes() == tasks


# item 2: one writer per output
def test_a_second_bc_eval_on_the_same_output_is_refused_at_once(tmp_path, tasks):
    out = tmp_path / "o.jsonl"
    first = start("bc-eval", "-o", out, "--model", "builtin:reference", "-q")
    wait_for(tmp_path / ".o.jsonl.lock", first)
    began = time.monotonic()
    second = run("bc-eval", "-o", out, "--model", "builtin:reference", "-q", stdin=tasks)
    assert second.returncode == 2 and time.monotonic() - began < 20
    err = second.stderr.decode()
    assert f"pid {first.pid}" in err and "bc-eval" in err and "being written by" in err, err
    for resume in (["--resume"], ["--resume", "--force"]):  # neither gets around it
        assert run("bc-eval", "-o", out, "--model", "builtin:reference", *resume, stdin=tasks).returncode == 2
    _, err = first.communicate(tasks, timeout=60)
    assert first.returncode == 0, err
    rows = out.read_bytes().splitlines()
    assert len(rows) == 4 and all(r.startswith(b"{") for r in rows)
    assert not (tmp_path / ".o.jsonl.lock").exists()  # a clean exit removes its lock file


def test_the_lock_of_a_killed_writer_is_free_again(tmp_path, tasks):
    out = tmp_path / "o.jsonl"
    first = start("bc-eval", "-o", out, "--model", "builtin:reference", "-q")
    wait_for(tmp_path / ".o.jsonl.lock", first)
    first.send_signal(signal.SIGKILL)
    first.communicate()
    assert (tmp_path / ".o.jsonl.lock").exists()  # the file stays, the kernel dropped the lock
    proc = run("bc-eval", "-o", out, "--model", "builtin:reference", "-q", stdin=tasks)
    assert proc.returncode == 0, proc.stderr
    assert len(out.read_bytes().splitlines()) == 4 and not (tmp_path / ".o.jsonl.lock").exists()


def test_devices_and_stdout_take_no_lock(tasks):
    procs = [start("bc-eval", "-o", "/dev/null", "--model", "builtin:reference", "-q") for _ in range(2)]
    for proc in procs:
        _, err = proc.communicate(tasks, timeout=60)
        assert proc.returncode == 0, err


def test_bc_filter_and_bc_gen_take_the_lock_too(tmp_path, tasks):
    out = tmp_path / "o.jsonl"
    first = start("bc-filter", "-o", out)
    wait_for(tmp_path / ".o.jsonl.lock", first)
    for second in (run("bc-filter", "-o", out, stdin=tasks), run("bc-gen", "arithmetic", "-n", "2", "-o", out)):
        assert second.returncode == 2 and f"bc-filter (pid {first.pid}".encode() in second.stderr, second.stderr
    _, err = first.communicate(tasks, timeout=60)
    assert first.returncode == 0 and out.read_bytes() == tasks, err


# item 4: the hidden temp file of a killed run is removed by the next run on that output
def test_the_next_run_removes_what_a_killed_bc_gen_left(tmp_path):
    out = tmp_path / "t.jsonl"
    proc = start("bc-gen", "arithmetic", "-n", "3000000", "-o", out)
    deadline = time.monotonic() + 60
    while not [p for p in tmp_path.glob(".t.jsonl.*.tmp") if p.stat().st_size > 0]:
        assert proc.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    second = run("bc-gen", "arithmetic", "-n", "2", "-o", out)  # the first still runs: refused
    assert second.returncode == 2 and f"pid {proc.pid}".encode() in second.stderr
    proc.send_signal(signal.SIGKILL)
    proc.communicate()
    left = list(tmp_path.glob(".t.jsonl.*.tmp"))
    assert len(left) == 1 and str(proc.pid) in left[0].name
    fourth = run("bc-gen", "arithmetic", "-n", "2", "-o", out)
    assert fourth.returncode == 0, fourth.stderr
    assert b"removed 1 stale temp file(s)" in fourth.stderr and not left[0].exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.jsonl"]


def test_a_temp_file_of_a_live_process_is_named_not_removed(tmp_path):
    out = tmp_path / "t.jsonl"
    mine = tmp_path / ".t.jsonl.1.abc123.tmp"  # pid 1 is alive and holds no lock on t.jsonl
    mine.write_bytes(b"x")
    from bc_common.locks import remove_stale_temps

    said: list[str] = []
    assert remove_stale_temps(out, locked=False, prog="bc-x", log=said.append) == 0
    assert mine.exists() and str(mine) in said[0]
    assert run("bc-filter", "-o", out, stdin=b"").returncode == 0  # a run that holds the lock knows better
    assert not mine.exists()


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_published_files_respect_the_umask(tmp_path, tasks, umask, mode):
    def with_umask(*args: object) -> subprocess.CompletedProcess:
        return subprocess.run([str(BIN / str(args[0])), *map(str, args[1:])], capture_output=True, timeout=120,
                              preexec_fn=lambda: os.umask(umask))

    assert with_umask("bc-gen", "arithmetic", "-n", "3", "-o", tmp_path / "t.jsonl").returncode == 0
    assert with_umask("bc-filter", tmp_path / "t.jsonl", "-o", tmp_path / "f.jsonl").returncode == 0
    assert with_umask("bc-gen", "arithmetic", "-n", "3", "-o", tmp_path / "t.parquet").returncode == 0
    for name in ("t.jsonl", "f.jsonl", "t.parquet"):
        assert oct((tmp_path / name).stat().st_mode & 0o777) == oct(mode), name


# item 1, a sample in every other tool
def test_every_tool_refuses_to_write_over_what_it_reads_or_writes(tmp_path, tasks):
    src = tmp_path / "t.jsonl"
    src.write_bytes(tasks)
    traj = tmp_path / "traj.jsonl"
    assert run("bc-eval", src, "--model", "builtin:reference", "-o", traj, "-q").returncode == 0
    tools = tmp_path / "cfg" / "remote_tool_config.yaml"
    tools.parent.mkdir()
    tools.write_text("tools: []\n")
    before = snapshot(tmp_path)
    cases = [
        (["bc-gen", "arithmetic", "-n", "2", "--exclude", src, "-o", alias(src, "symlink")], "also an input"),
        (["bc-gen", "arithmetic", "-n", "2", "-o", tmp_path / "new.jsonl", "--image-dir", tmp_path / "new.jsonl"],
         "--image-dir names the same file as -o"),
        (["bc-filter", traj, "-o", alias(traj, "hardlink")], "(a hard link)"),
        (["bc-report", traj, "--format", "md", "-o", tmp_path / "hardlink-traj.jsonl"], "also an input (FILES"),
        (["bc-report", src, "--compare", f"{traj},{src}", "-o", traj], "also an input (--compare"),
        (["bc-train", src, "-o", tmp_path], "holding an input (FILES"),
        (["bc-toolserve", "unified", "--tools", tools, "--output-dir", tools.parent], "also an input (--tools"),
        (["bc-toolserve", "unified", "--tools", tools, "--log-dir", tools], "--log-dir names a file that is also"),
    ]
    for args, says in cases:
        proc = run(*args, timeout=60)
        assert proc.returncode == 2 and says in proc.stderr.decode(), (args, proc.stderr)
    after = snapshot(tmp_path)
    assert {k: v for k, v in after.items() if "link" not in k} == before
