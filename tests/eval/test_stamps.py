"""Version stamps: task rows and trajectories name the bootcamp's version and a hash of its folder's code, and
`bc-eval --resume` across a changed bootcamp folder is refused, naming the bootcamp and both hashes."""
from __future__ import annotations

import os
import subprocess
import sys

import orjson

from bc_common.stamps import code_stamp

from .conftest import BIN, answer, arithmetic_task, bc_eval_env, read_jsonl, write_jsonl

REWARD = '''from bootcamps.arithmetic.reward import ArithmeticRewardCalculator


class Reward(ArithmeticRewardCalculator):
    """The arithmetic verifier, in a bootcamp folder of its own."""
'''


def stamp_in_subprocess(module: str, path: str) -> dict:
    """The stamp a fresh process computes (stamps are cached per process)."""
    code = f"import orjson, sys; from bc_common.stamps import code_stamp; print(orjson.dumps(code_stamp({module!r})).decode())"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True,
                          env={**os.environ, "PYTHONPATH": path})
    return orjson.loads(proc.stdout)


def test_task_rows_and_trajectories_carry_the_stamp_of_the_code_that_made_them(tmp_path):
    gen = subprocess.run([str(BIN / "bc-gen"), "arithmetic", "-n", "3"], capture_output=True, check=True)
    rows = [orjson.loads(line) for line in gen.stdout.splitlines()]
    expected = code_stamp("bootcamps.arithmetic.generator")  # computed here, never a frozen hash
    assert expected["bootcamp_version"].startswith("bootcamp-harness ") and len(expected["code_hash"]) == 16
    for row in rows:
        assert {k: row["extra_info"][k] for k in expected} == expected
    proc = subprocess.run([str(BIN / "bc-eval"), "--model", "builtin:reference"], input=gen.stdout,
                          capture_output=True, check=True)
    for traj in [orjson.loads(line) for line in proc.stdout.splitlines()]:
        assert {k: traj[k] for k in expected} == code_stamp("bootcamps.arithmetic.reward")


def test_the_hash_follows_every_file_of_the_folder_and_nothing_else(tmp_path):
    pkg = tmp_path / "mycamp"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "reward.py").write_text(REWARD)
    first = stamp_in_subprocess("mycamp.reward", str(tmp_path))
    (pkg / "__pycache__").mkdir(exist_ok=True)
    (pkg / "__pycache__" / "x.cpython-311.pyc").write_bytes(b"noise")
    assert stamp_in_subprocess("mycamp.reward", str(tmp_path)) == first  # byte-code caches do not count
    (pkg / "data.json").write_text("{}")
    second = stamp_in_subprocess("mycamp.reward", str(tmp_path))
    assert second["code_hash"] != first["code_hash"]  # data files do
    (pkg / "reward.py").write_text(REWARD + "# a fix\n")
    assert stamp_in_subprocess("mycamp.reward", str(tmp_path))["code_hash"] not in (first["code_hash"],
                                                                                    second["code_hash"])


def test_resume_across_a_changed_bootcamp_folder_is_refused_naming_both_hashes(tmp_path, scripted):
    pkg = tmp_path / "lib" / "mycamp"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "reward.py").write_text(REWARD)
    registry = write_jsonl(tmp_path / "registry.jsonl", [{"data_source": "bootcamp/mycamp",
                                                          "reward_calculator_class": "mycamp.reward.Reward"}])
    tasks = [{**arithmetic_task("2 + 3", i, tools=False, interaction=False, prompt=f"Compute 2 + 3 ({i})."),
              "data_source": "bootcamp/mycamp"} for i in range(2)]
    write_jsonl(tmp_path / "tasks.jsonl", tasks)
    _, url = scripted({"Compute 2 + 3 (0).": [{"content": answer(5)}],
                       "Compute 2 + 3 (1).": [{"content": answer(5), "faults": [{"status": 500}]}]})
    out = tmp_path / "out.jsonl"
    env = bc_eval_env(PYTHONPATH=str(tmp_path / "lib"))
    cmd = [str(BIN / "bc-eval"), str(tmp_path / "tasks.jsonl"), "-o", str(out), "--model", "m", "--base-url", url,
           "--bootcamp-registry", str(registry), "--retries", "0", "-q"]
    subprocess.run(cmd, check=True, env=env, capture_output=True)
    rows = read_jsonl(out)
    assert sorted(r["status"] for r in rows) == ["completed", "error"]
    before = rows[0]["code_hash"]

    (pkg / "reward.py").write_text(REWARD + "    # the verifier was fixed\n")
    now = stamp_in_subprocess("mycamp.reward", str(tmp_path / "lib"))["code_hash"]
    written = out.read_bytes()
    proc = subprocess.run([*cmd, "--resume"], env=env, capture_output=True)
    assert proc.returncode == 2, proc.stderr.decode()
    message = proc.stderr.decode()
    assert "resume across a changed bootcamp: bootcamp/mycamp" in message
    assert f"code_hash {before} (mycamp not installed) then, {now} (mycamp not installed) now" in message
    assert out.read_bytes() == written  # nothing written is touched

    proc = subprocess.run([*cmd, "--resume", "--force"], env=env, capture_output=True)
    assert proc.returncode == 0, proc.stderr.decode()
    rows = read_jsonl(out)
    assert [r["status"] for r in rows] == ["completed", "completed"]
    assert {r["code_hash"] for r in rows} == {before, now}  # mixed, as --force asked


def test_bc_filter_stats_and_bc_report_flag_a_run_that_mixes_code_versions(tmp_path):
    gen = subprocess.run([str(BIN / "bc-gen"), "arithmetic", "-n", "3"], capture_output=True, check=True)
    proc = subprocess.run([str(BIN / "bc-eval"), "--model", "builtin:reference", "-q"], input=gen.stdout,
                          capture_output=True, check=True)
    rows = [orjson.loads(line) for line in proc.stdout.splitlines()]
    uniform = write_jsonl(tmp_path / "uniform.jsonl", rows)
    current = rows[0]["code_hash"]
    rows[2]["code_hash"] = "0" * 16  # graded by other code of the bootcamp
    mixed = write_jsonl(tmp_path / "mixed.jsonl", rows)
    warning = f"bootcamp/arithmetic: 2 code versions ({current}: 2 rows, {'0' * 16}: 1 rows)"

    stats = subprocess.run([str(BIN / "bc-filter"), "--stats", str(mixed), "-o", str(tmp_path / "f.jsonl")],
                           capture_output=True)
    assert stats.returncode == 0 and warning in stats.stderr.decode(), stats.stderr.decode()
    stats = subprocess.run([str(BIN / "bc-filter"), "--stats", str(uniform), "-o", str(tmp_path / "g.jsonl")],
                           capture_output=True)
    assert "code versions" not in stats.stderr.decode()

    report = subprocess.run([str(BIN / "bc-report"), str(mixed), "--format", "md", "-o", "-"], capture_output=True)
    assert report.returncode == 0, report.stderr.decode()
    assert warning in report.stdout.decode() and warning in report.stderr.decode()
    report = subprocess.run([str(BIN / "bc-report"), str(uniform), "--format", "md", "-o", "-"], capture_output=True)
    assert "code versions" not in report.stdout.decode() + report.stderr.decode()
