"""bc-gen edge cases found in QA: odd identities, split names, bad paths, registry faults, seed spellings."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import orjson

from bc_common.jsonl import loads
from bc_common.parquet_io import read_parquet
from tests.seed_configs import seed_configs

BIN = Path(sys.executable).parent
ROOT = Path(__file__).parents[2]
ARITH_CONFIG = seed_configs() / "instruction_config.yaml"


def gen(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([str(BIN / "bc-gen"), *args], capture_output=True, cwd=cwd, env=env)


def test_identities_with_huge_ints_survive_jsonl_and_parquet(tmp_path):
    cfg = tmp_path / "big.yaml"
    cfg.write_text("instruction_generators:\n  a: {config: {digits: 30}}\n"
                   "global_config: {class_name: tests.gen.bigint_gen.BigIntInstructionGenerator}\n")
    proc = gen("--config", str(cfg), "--split-samples", "train:5", "--gen_parquet", "-o", str(tmp_path / "out"))
    assert proc.returncode == 0, proc.stderr.decode()
    lines = (tmp_path / "out/train.jsonl").read_bytes().splitlines()
    rows = [loads(line) for line in lines]
    for row in rows:
        n = row["reward_model"]["ground_truth"]["n"]
        assert isinstance(n, int) and n >= 10 ** 29 and row["prompt"][0]["content"] == f"Factor {n}."
        assert row["extra_info"]["interaction_kwargs"] == {}
    assert read_parquet(tmp_path / "out/train.parquet") == rows
    # the same bytes again (hashing and dedup of wide identities are deterministic)
    again = gen("--config", str(cfg), "--split-samples", "train:5", "-o", str(tmp_path / "again"))
    assert again.returncode == 0 and (tmp_path / "again/train.jsonl").read_bytes() == b"\n".join(lines) + b"\n"


def test_split_names_cannot_escape_the_output_folder(tmp_path):
    for bad in ("../escape:2", "a/b:2", ".hidden:1", "train:1,train:2"):
        proc = gen("--config", str(ARITH_CONFIG), "--split-samples", bad, "-o", str(tmp_path / "out"))
        assert proc.returncode == 2, (bad, proc.stderr)
        assert b"split" in proc.stderr and b"Traceback" not in proc.stderr
    assert not (tmp_path / "escape.jsonl").exists() and not (tmp_path / "out").exists()
    ok = gen("--config", str(ARITH_CONFIG), "--split-samples", "dev-é v2:3", "-o", str(tmp_path / "out"))
    assert ok.returncode == 0 and len((tmp_path / "out/dev-é v2.jsonl").read_bytes().splitlines()) == 3


def test_exclude_file_of_non_tasks_names_file_and_line(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"[1, 2]\n")
    proc = gen("arithmetic", "-n", "2", "--exclude", str(bad))
    assert proc.returncode == 2 and f"{bad}:1:".encode() in proc.stderr and b"Traceback" not in proc.stderr


def test_exclude_accepts_trajectories(tmp_path):
    small = ("arithmetic", "-n", "30", "--group", "easy", "--set", "min_terms=2", "--set", "max_terms=2", "--set", "max_digits=1")
    tasks = gen(*small).stdout
    traj = tmp_path / "traj.jsonl"
    traj.write_bytes(b"".join(orjson.dumps({"input": orjson.loads(line)}) + b"\n" for line in tasks.splitlines()))
    proc = gen(*small, "--split", "test", "--exclude", str(traj))
    assert proc.returncode == 0, proc.stderr.decode()
    seen = {orjson.dumps(orjson.loads(line)["reward_model"]) for line in tasks.splitlines()}
    assert not seen & {orjson.dumps(orjson.loads(line)["reward_model"]) for line in proc.stdout.splitlines()}


def test_output_that_is_a_folder_is_a_usage_error(tmp_path):
    proc = gen("arithmetic", "-n", "2", "-o", str(tmp_path))
    assert proc.returncode == 2 and b"Is a directory" in proc.stderr and b"Traceback" not in proc.stderr


def test_seed_spellings_output_dir_and_log_level(tmp_path):
    proc = gen("--instruction-config", str(ARITH_CONFIG), "--output_dir", str(tmp_path / "d"),
               "--split-samples", "train:2", "--log-level", "INFO")
    assert proc.returncode == 0, proc.stderr.decode()
    assert len((tmp_path / "d/train.jsonl").read_bytes().splitlines()) == 2


def test_registry_missing_file_and_implicit_config(tmp_path):
    work = tmp_path / "work"
    (work / "conf").mkdir(parents=True)
    reg = work / "conf/registry.jsonl"
    reg.write_text('{"data_source": "bootcamp/arithmetic"}\n'
                   '{"data_source": "bootcamp/ghost", "instruction_config_path": "nope/instruction_config.yaml"}\n')
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    # relative registry path from another working directory; the missing file stops the run before any output
    proc = gen("--registry", "../work/conf/registry.jsonl", "--split-samples", "train:3", "-o", "out", cwd=elsewhere)
    assert proc.returncode == 2 and b"registry.jsonl:2" in proc.stderr and b"nope/instruction_config.yaml" in proc.stderr
    assert not (elsewhere / "out").exists()
    proc = gen("--registry", "../work/conf/registry.jsonl", "--split-samples", "train:3", "-o", "out",
               "--continue-on-error", cwd=elsewhere)
    assert proc.returncode == 1 and b"ghost: FAILED" in proc.stderr
    # the line without instruction_config_path used the installed bootcamp's own config
    assert len((elsewhere / "out/arithmetic/train.jsonl").read_bytes().splitlines()) == 3
