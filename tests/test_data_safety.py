"""Every tool, run as a user runs it (real processes, real files): an output that is an input is refused, errors
share one shape and exit code, and an interrupted run leaves nothing half-written behind (issue 9)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent


def run(*args: object, stdin: bytes | Path | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    cmd = [str(BIN / str(args[0])), *map(str, args[1:])]
    if isinstance(stdin, Path):
        with open(stdin, "rb") as fh:
            return subprocess.run(cmd, stdin=fh, capture_output=True, timeout=120, cwd=cwd)
    return subprocess.run(cmd, input=stdin or b"", capture_output=True, timeout=120, cwd=cwd)


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("safety")
    tasks = tmp / "tasks.jsonl"
    tasks.write_bytes(run("bc-gen", "arithmetic", "-n", "6").stdout)
    traj = tmp / "traj.jsonl"
    proc = run("bc-eval", tasks, "--model", "builtin:reference", "-o", traj, "-q")
    assert proc.returncode == 0, proc.stderr
    return {"tasks": tasks, "traj": traj}


def _aliases(path: Path, kind: str) -> Path:
    """`path` itself, or a symlink or hard link to it (made once, beside it)."""
    if kind == "same":
        return path
    alias = path.with_name(f"{kind}-{path.name}")
    if not alias.exists():
        (alias.symlink_to if kind == "symlink" else alias.hardlink_to)(path)
    return alias


@pytest.mark.parametrize("kind", ["same", "symlink", "hardlink"])
@pytest.mark.parametrize("tool", ["bc-eval", "bc-filter"])
def test_an_output_that_is_an_input_is_refused(files, tool, kind):
    src = files["tasks"] if tool == "bc-eval" else files["traj"]
    before = src.read_bytes()
    extra = ["--model", "builtin:reference"] if tool == "bc-eval" else []
    proc = run(tool, src, "-o", _aliases(src, kind), *extra)
    assert proc.returncode == 2, proc.stderr
    err = proc.stderr.decode()
    assert err.startswith(f"{tool}: error: ") and "also an input" in err and str(src) in err
    assert src.read_bytes() == before
    # --resume does not get around it either
    if tool == "bc-eval":
        assert run(tool, src, "-o", src, *extra, "--resume").returncode == 2 and src.read_bytes() == before


@pytest.mark.parametrize("tool", ["bc-eval", "bc-filter"])
def test_stdin_redirected_from_the_output_is_refused(files, tool):
    src = files["tasks"] if tool == "bc-eval" else files["traj"]
    before = src.read_bytes()
    extra = ["--model", "builtin:reference"] if tool == "bc-eval" else []
    proc = run(tool, "-o", src, *extra, stdin=src)
    assert proc.returncode == 2 and b"<stdin>" in proc.stderr
    assert src.read_bytes() == before


def test_bc_gen_refuses_to_write_over_its_exclude_file(files, tmp_path):
    train = tmp_path / "train.jsonl"
    train.write_bytes(files["tasks"].read_bytes())
    proc = run("bc-gen", "arithmetic", "-n", "5", "--split", "test", "--exclude", train, "-o", train)
    assert proc.returncode == 2 and b"bc-gen: error:" in proc.stderr and b"also an input" in proc.stderr
    assert train.read_bytes() == files["tasks"].read_bytes()
    proc = run("bc-gen", "--config", "x.yaml", "--exclude", train, "-o", tmp_path / "d")
    assert proc.returncode == 2 and b"--exclude works with a single BOOTCAMP" in proc.stderr


def test_bc_train_refuses_a_run_folder_holding_its_input(files, tmp_path):
    run_dir = tmp_path / "run"
    assert run("bc-train", files["tasks"], "-o", run_dir).returncode == 0
    inside = run_dir / "tasks.jsonl"
    inside.write_bytes(files["tasks"].read_bytes())
    for flags in ([], ["--force"]):
        proc = run("bc-train", inside, "-o", run_dir, *flags)
        assert proc.returncode == 2 and b"holding an input" in proc.stderr, proc.stderr
        assert inside.exists() and (run_dir / "bc_train.json").exists()


@pytest.mark.parametrize("tool", ["bc-gen", "bc-eval", "bc-filter", "bc-train"])
def test_an_unwritable_output_is_exit_2_everywhere(files, tool, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    out = blocker / "out.jsonl"
    args = {"bc-gen": ["arithmetic", "-n", "3"], "bc-eval": [files["tasks"], "--model", "builtin:reference"],
            "bc-filter": [files["traj"]], "bc-train": [files["tasks"]]}[tool]
    proc = run(tool, *args, "-o", out)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.decode().startswith(f"{tool}: error: ") and b"Traceback" not in proc.stderr


def _terminate_when_started(cmd: list[str], wait_for: Path | None = None) -> tuple[int, bytes]:
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    if wait_for is not None:  # the temp file exists: the process is writing
        while not list(wait_for.glob(".*.tmp")) and time.monotonic() < deadline:
            time.sleep(0.05)
    else:
        time.sleep(1.5)  # started and blocked on stdin
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    return proc.returncode, err


def test_sigterm_exits_130_and_removes_temp_files(files, tmp_path):
    out = tmp_path / "out.jsonl"
    code, err = _terminate_when_started([str(BIN / "bc-filter"), "--best-per-task", "-o", str(out)])
    assert code == 130 and b"bc-filter: interrupted" in err and b"Traceback" not in err
    assert list(tmp_path.iterdir()) == []  # no orphaned .out.jsonl.*.tmp, no half output
    code, err = _terminate_when_started([str(BIN / "bc-filter"), "-o", str(out)])  # the fast path too
    assert code == 130 and list(tmp_path.iterdir()) == []
    big = tmp_path / "big"
    big.mkdir()
    code, err = _terminate_when_started([str(BIN / "bc-gen"), "arithmetic", "-n", "3000000", "-o",
                                         str(big / "t.jsonl")], wait_for=big)
    assert code == 130 and b"bc-gen: interrupted" in err
    assert list(big.iterdir()) == []


def test_a_class_name_that_is_not_a_bootcamp_class_is_exit_2(files, tmp_path):
    tools = tmp_path / "tools.yaml"
    tools.write_text("tools:\n  - class_name: builtins.print\n    config: {type: native}\n    tool_schema:\n"
                     "      type: function\n      function: {name: calc, description: d, parameters: "
                     "{type: object, properties: {}}}\n")
    proc = run("bc-eval", files["tasks"], "--model", "builtin:reference", "--tool-config", tools)
    assert proc.returncode == 2 and b"Traceback" not in proc.stderr
    assert b"builtins.print" in proc.stderr and b"subclass" in proc.stderr
    config = tmp_path / "instruction_config.yaml"
    config.write_text("instruction_generators:\n  g: {config: {}}\nglobal_config:\n  class_name: builtins.print\n")
    proc = run("bc-gen", "--config", config, "--split-samples", "train:2")
    assert proc.returncode == 2 and b"Traceback" not in proc.stderr
    assert b"must name a subclass of bc_common.bootcamp.InstructionGenerator" in proc.stderr


@pytest.mark.parametrize("args", [["--min-score", "nan"], ["--max-score", "inf"], ["--where", "score>nan"],
                                  ["--min-score", "-inf"]])
def test_bc_filter_refuses_thresholds_that_are_not_numbers(files, args):
    proc = run("bc-filter", files["traj"], *args)
    assert proc.returncode == 2 and proc.stdout == b"" and proc.stderr.startswith(b"bc-filter: error:")


@pytest.mark.parametrize("override", ["=x", "=", " a=1", "a b=1", "-a=1", "a"])
def test_bc_train_refuses_a_set_without_a_key(files, tmp_path, override):
    proc = run("bc-train", files["tasks"], "-o", tmp_path / "run", "--set", override)
    assert proc.returncode == 2 and b"expected a Hydra override" in proc.stderr
    assert not (tmp_path / "run").exists()


def test_unknown_flags_share_the_message_shape():
    for tool in ("bc-gen", "bc-eval", "bc-filter", "bc-train", "bc-toolserve"):
        proc = run(tool, "--no-such-flag")
        assert proc.returncode == 2, tool
        assert proc.stderr.decode().startswith(f"{tool}: error: No such option"), proc.stderr
        assert f"Try '{tool} --help'".encode() in proc.stderr


def test_a_broken_pipe_is_a_quiet_exit_0(files):
    cmd = f"{BIN}/bc-gen arithmetic -n 200000 | head -n 1"
    proc = subprocess.run(cmd, shell=True, capture_output=True, timeout=120, env={**os.environ})
    assert proc.returncode == 0 and proc.stdout.count(b"\n") == 1 and b"Traceback" not in proc.stderr


def test_bc_toolserve_refuses_to_write_its_remote_config_over_its_input(tmp_path):
    from tests.seed_configs import seed_configs

    tools = tmp_path / "remote_tool_config.yaml"
    tools.write_bytes((seed_configs("arithmetic") / "tool_config.yaml").read_bytes())
    before = tools.read_bytes()
    proc = run("bc-toolserve", "unified", "--tools", tools, "-n", "1", "--output-dir", tmp_path)
    assert proc.returncode == 2 and b"bc-toolserve: error:" in proc.stderr and b"also an input" in proc.stderr
    assert tools.read_bytes() == before
