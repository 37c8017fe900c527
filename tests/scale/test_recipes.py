"""The fan-out recipes of docs/scale.md, run for real on this machine: a shard resumes, and GNU parallel, a Slurm
job array (its generated script run as each array task would run it) and Ray tasks all give the trajectories of
one unsharded run, concatenated in shard order."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from bc_common.extras import missing_modules

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "scripts"
GEN = ["arithmetic", "-n", "12", "--seed", "7"]
EVAL = ["--model", "builtin:reference", "-q"]
SHARDS = 3
pytestmark = [pytest.mark.timeout(300), pytest.mark.slow, pytest.mark.xdist_group("ray")]  # with the Ray tests


def _env() -> dict[str, str]:
    """This checkout first on PYTHONPATH and the venv's commands on PATH (what a cluster node has installed)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    env["PATH"] = os.pathsep.join((str(Path(sys.executable).parent), env.get("PATH", "")))
    return env


def _run(argv: list[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(argv, env=kwargs.pop("env", _env()), cwd=ROOT, capture_output=True, text=True,
                          timeout=240, **kwargs)


def _scores(path: Path) -> list[tuple[str, float]]:
    """(task id, score) per trajectory, in file order."""
    return _scores_of(path.read_bytes())


def _scores_of(jsonl: bytes) -> list[tuple[str, float]]:
    rows = [orjson.loads(line) for line in jsonl.splitlines()]
    return [(r["task_id"], r["reward"]["score"]) for r in rows]


@pytest.fixture(scope="module")
def unsharded(tmp_path_factory) -> dict:
    """The same run without shards: its tasks and per-task scores."""
    tmp = tmp_path_factory.mktemp("whole")
    assert _run(["bc-gen", *GEN, "-o", str(tmp / "tasks.jsonl")]).returncode == 0
    done = _run(["bc-eval", str(tmp / "tasks.jsonl"), "-o", str(tmp / "runs.jsonl"), *EVAL])
    assert done.returncode == 0, done.stderr
    return {"tasks": (tmp / "tasks.jsonl").read_text().splitlines(), "scores": dict(_scores(tmp / "runs.jsonl"))}


def _check_sharded_run(out: Path, unsharded: dict) -> None:
    """Every shard done; runs.jsonl is part 0, 1, 2 in that order; together the unsharded run's tasks and scores."""
    assert all((out / "runs" / f"part-{k}.done").exists() for k in range(SHARDS))
    tasks = [line for k in range(SHARDS) for line in (out / "tasks" / f"part-{k}.jsonl").read_text().splitlines()]
    assert sorted(tasks) == sorted(unsharded["tasks"])  # same bytes per task, however sharded
    parts = [row for k in range(SHARDS) for row in _scores(out / "runs" / f"part-{k}.jsonl")]
    assert _scores(out / "runs.jsonl") == parts  # concatenated in shard order
    assert dict(parts) == unsharded["scores"] and len(parts) == len(unsharded["tasks"])
    assert sum(score for _, score in parts) > 0  # the reference solves arithmetic: a run that did nothing fails


def test_shard_resumes_and_concat_waits_for_every_shard(tmp_path, unsharded):
    out = tmp_path / "out"
    shard = [str(SCRIPTS / "shard.sh")]
    first = _run(shard + ["0", str(SHARDS), str(out), *GEN, "--", *EVAL])
    assert first.returncode == 0, first.stderr
    concat = _run([str(SCRIPTS / "concat_shards.sh"), str(out), str(SHARDS)])
    assert concat.returncode == 1 and "shards not done: 1 2" in concat.stderr and not (out / "runs.jsonl").exists()
    # a shard killed mid-run: no done mark, half its trajectories (and a torn line); the rerun resumes it
    for k in (1, 2):
        assert _run(shard + [str(k), str(SHARDS), str(out), *GEN, "--", *EVAL]).returncode == 0
    runs = out / "runs" / "part-1.jsonl"
    lines = runs.read_text().splitlines(keepends=True)
    runs.write_text("".join(lines[:2]) + lines[2][:40])
    (out / "runs" / "part-1.done").unlink()
    untouched = (out / "runs" / "part-0.jsonl").stat().st_mtime_ns
    for k in range(SHARDS):  # rerunning every shard: done ones are skipped
        again = _run(shard + [str(k), str(SHARDS), str(out), *GEN, "--", *EVAL])
        assert again.returncode == 0, again.stderr
        assert ("done already" in again.stderr) == (k != 1)
    assert (out / "runs" / "part-0.jsonl").stat().st_mtime_ns == untouched
    assert _run([str(SCRIPTS / "concat_shards.sh"), str(out), str(SHARDS)]).returncode == 0
    _check_sharded_run(out, unsharded)
    bad = _run(shard + ["3", "3", str(out), *GEN, "--", *EVAL])
    assert bad.returncode == 2 and "K must be below M" in bad.stderr


@pytest.mark.skipif(shutil.which("parallel") is None, reason="GNU parallel is not installed (apt install parallel)")
def test_gnu_parallel_recipe(tmp_path, unsharded):
    out = tmp_path / "out"
    done = _run(["parallel", "--will-cite", "--halt", "now,fail=1", "-j", "2", str(SCRIPTS / "shard.sh"), "{}",
                 str(SHARDS), str(out), *GEN, "--", *EVAL, ":::", *map(str, range(SHARDS))])
    assert done.returncode == 0, done.stderr
    assert _run([str(SCRIPTS / "concat_shards.sh"), str(out), str(SHARDS)]).returncode == 0
    _check_sharded_run(out, unsharded)


def test_slurm_array_recipe_runs_each_task_locally(tmp_path, unsharded):
    out = tmp_path / "out"
    made = _run([sys.executable, str(SCRIPTS / "slurm_array.py"), "--shards", str(SHARDS), "--out", str(out),
                 "--parallel", "2", "--mem", "4G", "--time", "01:00:00", "--", *GEN, "--", *EVAL])
    assert made.returncode == 0, made.stderr
    script = tmp_path / "run.sbatch"
    script.write_text(made.stdout)
    assert "#SBATCH --array=0-2%2" in made.stdout and "#SBATCH --mem=4G" in made.stdout
    assert (out / "logs").is_dir()  # Slurm opens the --output file before the script runs
    assert _run(["bash", str(script)]).returncode != 0  # outside an array task it refuses, naming why
    for task_id in range(SHARDS):  # what Slurm runs for each array task
        done = _run(["bash", str(script)], env={**_env(), "SLURM_ARRAY_TASK_ID": str(task_id)})
        assert done.returncode == 0, done.stderr
    assert _run([str(SCRIPTS / "concat_shards.sh"), str(out), str(SHARDS)]).returncode == 0
    _check_sharded_run(out, unsharded)


@pytest.mark.skipif(bool(missing_modules(["ray"])), reason="Ray is not installed (the `ray` extra)")
def test_ray_tasks_recipe_resumes_per_shard(tmp_path, unsharded):
    from tests.toolserve.test_ray_workers import RayHead

    head = RayHead(_env())
    try:
        out = tmp_path / "out"
        argv = [sys.executable, str(SCRIPTS / "ray_shards.py"), "--address", head.address, "--shards", str(SHARDS),
                "--out", str(out), "--num-cpus", "0.5", "--", *GEN, "--", *EVAL]
        done = _run(argv)
        assert done.returncode == 0, done.stderr[-3000:]
        _check_sharded_run(out, unsharded)
        whole = (out / "runs.jsonl").read_bytes()
        # shard 2 lost with its node (no done mark, no trajectories): the rerun redoes that shard only
        (out / "runs" / "part-2.done").unlink()
        (out / "runs" / "part-2.jsonl").unlink()
        kept = [(out / "runs" / f"part-{k}.jsonl").stat().st_mtime_ns for k in (0, 1)]
        again = _run(argv)
        assert again.returncode == 0, again.stderr[-3000:]
        assert [(out / "runs" / f"part-{k}.jsonl").stat().st_mtime_ns for k in (0, 1)] == kept
        assert _scores(out / "runs.jsonl") == [(i, s) for i, s in _scores_of(whole)]
    finally:
        head.stop()
