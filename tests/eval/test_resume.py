"""Nothing finished is lost, nothing is duplicated: kill -9 in the middle of a run, then --resume."""
from __future__ import annotations

import os
import signal
import subprocess
import time
from collections import Counter
from pathlib import Path

import orjson
import pytest

from bc_common.errors import InputError
from bc_eval.resume import prepare_resume

from .conftest import BIN, answer, arithmetic_task, bc_eval_env, read_jsonl, write_jsonl


def keys(rows: list[dict]) -> Counter:
    return Counter((r["task_id"], r["sample"]) for r in rows)


def bc_eval(*args: str, **kwargs) -> subprocess.Popen:
    return subprocess.Popen([str(BIN / "bc-eval"), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=bc_eval_env(), **kwargs)


def test_kill_9_then_resume_leaves_every_task_sample_exactly_once(tmp_path: Path, scripted):
    tasks = [arithmetic_task(f"{i} × 3", i, interaction=False) for i in range(40)]
    scripts = {t["prompt"][0]["content"]: [
        {"tool_calls": [{"name": "calculate", "arguments": {"expression": f"{i} × 3"}}]},
        {"content": answer(3 * i)}] for i, t in enumerate(tasks)}
    scripts[tasks[5]["prompt"][0]["content"]][1]["faults"] = [{"status": 400}]  # errors once, then answers
    _, url = scripted(scripts, delay=0.03, record=False)
    tasks_file = write_jsonl(tmp_path / "tasks.jsonl", tasks)
    out = tmp_path / "out.jsonl"
    args = [str(tasks_file), "-o", str(out), "--model", "m", "--base-url", url, "-c", "4", "--samples", "2",
            "--retries", "0", "-q"]
    proc = bc_eval(*args)
    deadline = time.monotonic() + 30
    while not (out.exists() and out.read_bytes().count(b"\n") >= 20):
        assert time.monotonic() < deadline and proc.poll() is None, "bc-eval ended before it could be killed"
        time.sleep(0.01)
    proc.send_signal(signal.SIGKILL)
    proc.communicate()
    before = out.read_bytes()
    with open(out, "ab") as fh:  # what a kill in the middle of a write leaves behind
        fh.write(before.splitlines(keepends=True)[0][:57])
    finished = [line for line in before.splitlines() if b'"status":"error"' not in line]
    assert 20 <= len(before.splitlines()) < 80

    proc = bc_eval(*args, "--resume")
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err.decode()
    rows = read_jsonl(out)
    expected = {(t["id"], s) for t in tasks for s in range(2)}
    assert keys(rows) == Counter(expected)  # all there, each exactly once
    assert all(r["status"] == "completed" and r["score"] == 1.0 for r in rows)
    after = set(out.read_bytes().splitlines())
    assert all(line in after for line in finished)  # finished work was kept as it was
    assert b"resume: kept" in err


def traj(tid: str, sample: int, status: str = "completed", model: str = "m") -> bytes:
    return orjson.dumps({"id": f"{tid}#{sample}", "task_id": tid, "sample": sample, "status": status,
                         "model": model, "score": 1.0, "input": {}, "messages": []}) + b"\n"


def test_resume_keeps_finished_rows_and_drops_errors_and_a_torn_last_line(tmp_path: Path):
    out = tmp_path / "out.jsonl"
    out.write_bytes(traj("a", 0) + traj("a", 1, "error") + traj("b", 0) + traj("c", 0)[:30])
    os.chmod(out, 0o640)
    seen = []
    state = prepare_resume(out, on_kept=seen.append, model="m", samples=2)
    assert state.done == {("a", 0), ("b", 0)}
    assert (state.dropped_errors, state.torn_line) == (1, 4)
    assert out.read_bytes() == traj("a", 0) + traj("b", 0) and len(seen) == 2
    assert out.stat().st_mode & 0o777 == 0o640
    assert prepare_resume(tmp_path / "missing.jsonl").done == set()


@pytest.mark.parametrize("content,line,says", [
    (traj("a", 0) + b'{"task_id": "b", "sam\n' + traj("c", 0), 2, b"corrupt line in the middle"),
    (traj("a", 0) + traj("b", 0)[:40] + b"\n", 2, b"corrupt line"),  # complete (newline) yet broken: not torn
    (traj("a", 0) + b'{"hello": "world"}\n', 2, b"not a bc-eval trajectory"),
    (traj("a", 0) + b"[1, 2]\n" + traj("b", 0), 2, b"not a bc-eval trajectory"),
    (traj("a", 0) + traj("b", 0) + traj("a", 0), 3, b"a second trajectory for task 'a' sample 0 (the first is line 1)"),
    (traj("a", 0) + traj("b", 0, model="other"), 2, b"a trajectory of model 'other', not of this run's 'm'"),
    (traj("a", 0) + traj("a", 5), 2, b"sample 5 is beyond this run's --samples 2"),
])
def test_resume_refuses_lines_that_are_not_this_runs_and_changes_nothing(tmp_path: Path, content, line, says):
    out = tmp_path / "out.jsonl"
    out.write_bytes(content)
    with pytest.raises(InputError) as info:
        prepare_resume(out, model="m", samples=2)
    assert str(info.value).startswith(f"{out}:{line}: ") and says in str(info.value).encode()
    assert out.read_bytes() == content and not list(tmp_path.glob(".out.jsonl.*"))


def test_resume_reruns_errors_and_missing_only(tmp_path: Path, scripted):
    tasks = [arithmetic_task(f"{i} + 10", i, interaction=False) for i in range(3)]
    server, url = scripted({t["prompt"][0]["content"]: [{"content": answer(i + 10)}] for i, t in enumerate(tasks)})
    tasks_file = write_jsonl(tmp_path / "tasks.jsonl", tasks)
    out = tmp_path / "out.jsonl"
    first = subprocess.run([str(BIN / "bc-eval"), str(tasks_file), "-o", str(out), "--model", "m",
                            "--base-url", url, "-q", "--ordered"], capture_output=True, env=bc_eval_env())
    assert first.returncode == 0, first.stderr.decode()
    kept = read_jsonl(out)[0]  # task 0 finished, task 1 errored, task 2 never ran
    write_jsonl(out, [kept, kept | {"task_id": tasks[1]["id"], "id": tasks[1]["id"] + "#0", "status": "error"}])
    n_before = len(server.requests)
    second = subprocess.run([str(BIN / "bc-eval"), str(tasks_file), "-o", str(out), "--model", "m",
                             "--base-url", url, "--resume", "-q"], capture_output=True, env=bc_eval_env())
    assert second.returncode == 0, second.stderr.decode()
    assert len(server.requests) - n_before == 2  # task 0 was kept; tasks 1 (errored) and 2 (missing) ran
    rows = read_jsonl(out)
    assert [r["task_id"] for r in rows] == [t["id"] for t in tasks]
    assert all(r["status"] == "completed" for r in rows)


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / "bc-eval"), *args], capture_output=True, env=bc_eval_env(), timeout=120)


def test_settings_are_stored_beside_out_and_a_resume_under_others_is_refused(tmp_path: Path):
    tasks = write_jsonl(tmp_path / "t.jsonl", [arithmetic_task(f"{i} + 4", i) for i in range(6)])
    out = tmp_path / "out.jsonl"
    first = run(str(tasks), "-o", str(out), "--model", "builtin:noisy", "--samples", "2", "-q",
                "--verify-correction-kwargs", '{"format_score": 0.1}')
    assert first.returncode == 0, first.stderr.decode()
    meta = orjson.loads((tmp_path / "out.jsonl.meta.json").read_bytes())
    assert meta["model"] == "builtin:noisy" and meta["samples"] == 2 and meta["verify_kwargs"] == {"format_score": 0.1}
    assert meta["limits"]["max_assistant_turns"] is None  # the bootcamp's own budget
    before = out.read_bytes()
    assert all(isinstance(orjson.loads(line), dict) for line in before.splitlines())  # OUT: trajectories only

    refused = run(str(tasks), "-o", str(out), "--model", "builtin:reference", "--resume", "-q")
    assert refused.returncode == 2 and out.read_bytes() == before
    err = refused.stderr.decode()
    assert "--resume under other settings" in err and "model \"builtin:noisy\" then, \"builtin:reference\" now" in err
    assert "samples 2 then, 1 now" in err and "verify_kwargs" in err and "--force" in err

    same = run(str(tasks), "-o", str(out), "--model", "builtin:noisy", "--samples", "2", "--resume", "-q",
               "--verify-correction-kwargs", '{"format_score": 0.1}')
    assert same.returncode == 0 and out.read_bytes() == before, same.stderr.decode()

    forced = run(str(tasks), "-o", str(out), "--model", "builtin:reference", "--samples", "3", "--resume", "--force",
                 "-q")
    assert forced.returncode == 0, forced.stderr.decode()
    assert b"--force: resuming" in forced.stderr
    rows = read_jsonl(out)
    assert Counter(r["model"] for r in rows) == {"builtin:noisy": 12, "builtin:reference": 6}
    assert orjson.loads((tmp_path / "out.jsonl.meta.json").read_bytes())["model"] == "builtin:reference"


def test_resume_of_a_file_with_a_corrupt_middle_line_is_exit_2_and_keeps_it(tmp_path: Path):
    tasks = write_jsonl(tmp_path / "t.jsonl", [arithmetic_task(f"{i} + 5", i) for i in range(3)])
    out = tmp_path / "out.jsonl"
    assert run(str(tasks), "-o", str(out), "--model", "builtin:reference", "-q").returncode == 0
    lines = out.read_bytes().splitlines(keepends=True)
    broken = lines[0] + lines[1][:50] + b"\n" + lines[2]
    out.write_bytes(broken)
    proc = run(str(tasks), "-o", str(out), "--model", "builtin:reference", "--resume", "-q")
    assert proc.returncode == 2 and f"{out}:2: not valid JSON".encode() in proc.stderr
    assert out.read_bytes() == broken
    out.write_bytes(lines[0] + lines[1][:50])  # torn last line: dropped, said, rerun
    proc = run(str(tasks), "-o", str(out), "--model", "builtin:reference", "--resume", "-q")
    assert proc.returncode == 0 and f"dropped the torn last line {out}:2".encode() in proc.stderr
    assert sorted(r["task_id"] for r in read_jsonl(out)) == ["arith-0", "arith-1", "arith-2"]


def test_resume_against_another_server_or_task_file_is_refused_unless_forced(tmp_path: Path, scripted):
    tasks = [arithmetic_task(f"{i} + 20", i, interaction=False) for i in range(3)]
    scripts = {t["prompt"][0]["content"]: [{"content": answer(i + 20)}] for i, t in enumerate(tasks)}
    _, url_a = scripted(scripts)
    _, url_b = scripted(scripts)
    tasks_file = write_jsonl(tmp_path / "tasks.jsonl", tasks)
    out = tmp_path / "out.jsonl"
    args = ["-o", str(out), "--model", "m", "-q"]
    assert run(str(tasks_file), *args, "--base-url", url_a).returncode == 0
    before, meta = out.read_bytes(), (tmp_path / "out.jsonl.meta.json").read_bytes()

    refused = run(str(tasks_file), *args, "--base-url", url_b, "--resume")
    assert refused.returncode == 2 and f'base_url "{url_a}" then, "{url_b}" now'.encode() in refused.stderr
    by_env = subprocess.run([str(BIN / "bc-eval"), str(tasks_file), *args, "--resume"], capture_output=True,
                            env=bc_eval_env(OPENAI_BASE_URL=url_b), timeout=120)
    assert by_env.returncode == 2 and b"base_url" in by_env.stderr
    other = write_jsonl(tmp_path / "other.jsonl", [arithmetic_task("7 + 7", 9, interaction=False)])
    refused = run(str(other), *args, "--base-url", url_a, "--resume")
    assert refused.returncode == 2, refused.stderr
    assert b"tasks " + str(tasks_file).encode() + b" (3 task ids" in refused.stderr
    assert str(other).encode() + b" (1 task ids" in refused.stderr
    assert out.read_bytes() == before and (tmp_path / "out.jsonl.meta.json").read_bytes() == meta  # untouched

    moved = tmp_path / "moved.jsonl"
    tasks_file.rename(moved)  # the same tasks under another name still resume
    assert run(str(moved), *args, "--base-url", url_a, "--resume").returncode == 0
    forced = run(str(moved), *args, "--base-url", url_b, "--resume", "--force")
    assert forced.returncode == 0 and b"--force: resuming" in forced.stderr
