"""bc-gen as a user runs it: a real subprocess writing real files."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from bc_common.parquet_io import read_parquet
from tests.seed_configs import seed_configs

BIN = Path(sys.executable).parent
ARITH_CONFIG = seed_configs() / "instruction_config.yaml"


def gen(*args: str, check: bool = True, cwd: Path | None = None) -> subprocess.CompletedProcess:
    proc = subprocess.run([str(BIN / "bc-gen"), *args], capture_output=True, cwd=cwd)
    if check and proc.returncode != 0:
        raise AssertionError(proc.stderr.decode())
    return proc


def rows(data: bytes) -> list[dict]:
    return [orjson.loads(line) for line in data.splitlines()]


def test_same_seed_same_bytes_and_different_seed_differs():
    a = gen("arithmetic", "-n", "1000", "--seed", "7").stdout
    b = gen("arithmetic", "-n", "1000", "--seed", "7").stdout
    assert a == b and a.count(b"\n") == 1000
    assert gen("arithmetic", "-n", "1000", "--seed", "8").stdout != a
    ids = [r["id"] for r in rows(a)]
    assert len(set(ids)) == 1000


def test_shards_partition_the_full_set():
    full = gen("arithmetic", "-n", "1000", "--seed", "7").stdout.splitlines()
    parts = [gen("arithmetic", "-n", "1000", "--seed", "7", "--shard", f"{k}/4").stdout.splitlines()
             for k in range(4)]
    assert sorted(sum(parts, [])) == sorted(full)
    for k, part in enumerate(parts):
        assert [r["extra_info"]["index"] % 4 for r in rows(b"\n".join(part))] == [k] * len(part)


def test_parallel_is_byte_identical():
    one = gen("arithmetic", "-n", "6000", "--seed", "3", "-j", "1").stdout
    two = gen("arithmetic", "-n", "6000", "--seed", "3", "-j", "2").stdout
    assert one == two


def test_duplicates_are_redrawn_and_reported(tmp_path):
    proc = gen("arithmetic", "-n", "150", "--group", "easy", "--set", "min_terms=2", "--set", "max_terms=2", "--set", "max_digits=1",
               "--set", "operators=+-", "--set", "parentheses=0")
    identities = [r["reward_model"]["ground_truth"]["expression"] for r in rows(proc.stdout)]
    assert len(identities) == len(set(identities)) == 150
    assert b"duplicates regenerated" in proc.stderr
    # sharded output stays consistent with the deduplicated full run
    parts = [gen("arithmetic", "-n", "150", "--group", "easy", "--set", "min_terms=2", "--set", "max_terms=2", "--set",
                 "max_digits=1", "--set", "operators=+-", "--set", "parentheses=0", "--shard", f"{k}/3").stdout
             for k in range(3)]
    assert sorted(b"".join(parts).splitlines()) == sorted(proc.stdout.splitlines())


def test_impossible_count_fails_clearly():
    # 2 terms, 1 digit, only '+': 81 distinct expressions
    proc = gen("arithmetic", "-n", "100", "--group", "easy", "--set", "min_terms=2", "--set", "max_terms=2", "--set", "max_digits=1",
               "--set", "operators=+", "--set", "parentheses=0", check=False)
    assert proc.returncode == 2
    assert b"cannot produce enough distinct tasks" in proc.stderr


def test_exclude_keeps_splits_disjoint(tmp_path):
    train = tmp_path / "train.jsonl"
    small = ["--group", "easy", "--set", "min_terms=2", "--set", "max_terms=2", "--set", "max_digits=1", "--set", "operators=+-",
             "--set", "parentheses=0"]
    gen("arithmetic", "-n", "60", *small, "-o", str(train))
    test = gen("arithmetic", "-n", "60", "--split", "test", *small, "--exclude", str(train)).stdout
    key = lambda r: r["reward_model"]["ground_truth"]["expression"]  # noqa: E731
    assert not {key(r) for r in rows(train.read_bytes())} & {key(r) for r in rows(test)}


def test_config_mode_splits_ratios_and_disjointness(tmp_path):
    out = tmp_path / "data"
    gen("--config", str(ARITH_CONFIG), "--split-samples", "train:97,test:13", "-o", str(out), "--gen-parquet")
    train, test = rows((out / "train.jsonl").read_bytes()), rows((out / "test.jsonl").read_bytes())
    assert len(train) == 97 and len(test) == 13
    groups = {}
    for r in train:
        groups[r["extra_info"]["generator_name"]] = groups.get(r["extra_info"]["generator_name"], 0) + 1
    assert groups == {"easy": 29, "medium": 49, "hard": 19}  # 0.3/0.5/0.2 of 97 by largest remainder
    key = lambda r: orjson.dumps(r["reward_model"]["ground_truth"], option=orjson.OPT_SORT_KEYS)  # noqa: E731
    assert len({key(r) for r in train}) == 97 and not {key(r) for r in train} & {key(r) for r in test}
    assert read_parquet(out / "train.parquet") == train
    again = tmp_path / "again"
    gen("--config", str(ARITH_CONFIG), "--split-samples", "train:97,test:13", "-o", str(again), "-j", "2")
    assert (again / "train.jsonl").read_bytes() == (out / "train.jsonl").read_bytes()
    assert train != sorted(train, key=lambda r: (r["extra_info"]["generator_name"], r["extra_info"]["index"]))
    for split in (train, test):  # the index is unique per split: the groups number their rows after each other
        assert sorted(r["extra_info"]["index"] for r in split) == list(range(len(split)))


def test_seed_flags_no_tool_and_overrides(tmp_path):
    out = tmp_path / "d"
    gen("--config", str(ARITH_CONFIG), "--split-samples", "train:5", "--no-tool", "--no-interaction",
        "--global-config-overrides", '{"shuffle": false, "default_seed": 5}', "-o", str(out))
    train = rows((out / "train.jsonl").read_bytes())
    assert all(r["extra_info"]["tools_kwargs"] == {} and r["extra_info"]["interaction_kwargs"] == {} for r in train)
    assert all(r["agent_name"] == "single_turn_agent" and r["extra_info"]["seed"] == 5 for r in train)
    bad = gen("--config", str(ARITH_CONFIG), "--global-config-overrides", '{"shufle": 1}', check=False)
    assert bad.returncode == 2 and b"'shufle'" in bad.stderr


def test_misspelled_config_key_is_named(tmp_path):
    text = ARITH_CONFIG.read_text().replace("min_terms: 9", "min_term: 9")  # the hard group only
    bad = tmp_path / "instr.yaml"
    bad.write_text(text.replace("tool_config.yaml", str(ARITH_CONFIG.parent / "tool_config.yaml"))
                   .replace("interaction_config.yaml", str(ARITH_CONFIG.parent / "interaction_config.yaml")))
    proc = gen("--config", str(bad), check=False)
    assert proc.returncode == 2
    assert f"{bad}: instruction_generators.hard.config: unknown key 'min_term'".encode() in proc.stderr
    proc = gen("arithmetic", "--set", "max_digts=3", check=False)
    assert proc.returncode == 2 and b"'max_digts'" in proc.stderr and b"max_digits" in proc.stderr


def test_malformed_jsonl_names_file_and_line(tmp_path):
    bad = tmp_path / "train.jsonl"
    bad.write_text('{"reward_model": {"ground_truth": {}}}\n{"broken": \n')
    proc = gen("arithmetic", "-n", "3", "--exclude", str(bad), check=False)
    assert proc.returncode == 2 and f"{bad}:2: invalid JSON".encode() in proc.stderr


def test_parquet_reads_back_equal(tmp_path):
    out = tmp_path / "t.parquet"
    gen("arithmetic", "-n", "50", "--seed", "4", "-o", str(out))
    assert read_parquet(out) == rows(gen("arithmetic", "-n", "50", "--seed", "4").stdout)


def test_registry_mode_isolates_failures(tmp_path):
    reg = tmp_path / "bootcamp_registry.jsonl"
    broken = tmp_path / "broken.yaml"
    broken.write_text(ARITH_CONFIG.read_text().replace("max_terms: 5", "max_terms: 1")  # easy: min_terms 4 > max_terms 1
                      .replace("tool_config.yaml", str(ARITH_CONFIG.parent / "tool_config.yaml"))
                      .replace("interaction_config.yaml", str(ARITH_CONFIG.parent / "interaction_config.yaml")))
    reg.write_text(
        orjson.dumps({"instruction_config_path": str(ARITH_CONFIG), "data_source": "bootcamp/arithmetic"}).decode()
        + "\n" + orjson.dumps({"instruction_config_path": str(broken), "data_source": "bootcamp/broken"}).decode()
        + "\n")
    out = tmp_path / "out"
    proc = gen("--registry", str(reg), "-o", str(out), "--split-samples", "train:20,test:5", "-j", "2",
               "--continue-on-error", "--concat", check=False)
    assert proc.returncode == 1
    assert b"broken: FAILED" in proc.stderr and b"max_terms" in proc.stderr
    assert len(rows((out / "arithmetic" / "train.jsonl").read_bytes())) == 20
    assert len(rows((out / "train.jsonl").read_bytes())) == 20
    assert not (out / "broken").exists() or not any((out / "broken").iterdir())
    assert not [p for p in out.rglob("*.tmp")]


def test_schema_list_and_help(bc_gen_list):
    schema = orjson.loads(gen("--schema", "task").stdout)
    assert schema["required"] == ["id", "data_source", "prompt", "reward_model", "extra_info"]
    assert "arithmetic" in bc_gen_list().stdout
    assert b"Examples:" in gen("--help").stdout


def test_rows_validate_against_published_schema():
    jsonschema = pytest.importorskip("jsonschema")
    schema = orjson.loads(gen("--schema", "task").stdout)
    for row in rows(gen("arithmetic", "-n", "20").stdout) + rows(gen("noop", "-n", "5").stdout):
        jsonschema.validate(row, schema)


def test_stdout_is_records_only():
    proc = gen("noop", "-n", "5")
    assert all(line.startswith(b"{") for line in proc.stdout.splitlines())
    assert b"5 rows" in proc.stderr
    env = dict(os.environ)
    pipe = subprocess.run(f"{BIN}/bc-gen arithmetic -n 100000 | head -n 1", shell=True, capture_output=True, env=env)
    assert pipe.returncode == 0 and pipe.stdout.count(b"\n") == 1
