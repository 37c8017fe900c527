"""bc-gen honours the seed registry's per-line keys, the config's gen_parquet, and shuffles concatenated outputs
with the seed (issue 9)."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import orjson
import pyarrow.parquet as pq
import pytest

from bc_common.errors import ConfigError
from bc_common.parquet_io import read_parquet
from bc_common.registry import load_registry_file
from tests.seed_configs import seed_configs

BC_GEN = str(Path(sys.executable).with_name("bc-gen"))


def gen(*args: object, cwd: Path | None = None) -> subprocess.CompletedProcess:
    proc = subprocess.run([BC_GEN, *map(str, args)], capture_output=True, timeout=180, cwd=cwd)
    assert proc.returncode == 0, proc.stderr.decode()
    return proc


def rows(path: Path) -> list[dict]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines()]


@pytest.fixture()
def cfg(tmp_path: Path) -> Path:
    folder = tmp_path / "cfg"
    shutil.copytree(seed_configs("arithmetic"), folder)
    renamed = (folder / "tool_config.yaml").read_text().replace("name: calculate", "name: calc2")
    (folder / "tools2.yaml").write_text(renamed)
    return folder


def registry(path: Path, *lines: dict) -> Path:
    path.write_bytes(b"".join(orjson.dumps(line) + b"\n" for line in lines))
    return path


def test_per_line_keys_are_honoured(cfg: Path, tmp_path: Path) -> None:
    reg = registry(tmp_path / "reg.jsonl", {
        "data_source": "bootcamp/alpha", "instruction_config_path": str(cfg / "instruction_config.yaml"),
        "split_samples": "train:7,test:2", "output_dir": str(tmp_path / "alpha_out"), "gen_parquet": True,
        "shuffle": False,
    }, {
        "data_source": "bootcamp/beta", "instruction_config_path": str(cfg / "instruction_config.yaml"),
        "split_samples": {"train": 30}, "tool_config_path": str(cfg / "tools2.yaml"),
        "interaction_config_path": str(cfg / "interaction_config.yaml"),
        "global_config_overrides": {"default_seed": 5},
    })
    gen("--registry", reg, "-o", tmp_path / "out", "--split-samples", "train:50")  # the lines' counts win
    alpha = rows(tmp_path / "alpha_out" / "train.jsonl")
    assert len(alpha) == 7 and len(rows(tmp_path / "alpha_out" / "test.jsonl")) == 2
    assert read_parquet(tmp_path / "alpha_out" / "train.parquet") == alpha  # gen_parquet on this line only
    assert not (tmp_path / "out" / "alpha").exists()
    groups = [r["extra_info"]["generator_name"] for r in alpha]
    assert groups == sorted(groups, key=["easy", "medium", "hard"].index)  # shuffle: false keeps group order
    beta = rows(tmp_path / "out" / "beta" / "train.jsonl")
    assert len(beta) == 30 and not (tmp_path / "out" / "beta" / "train.parquet").exists()
    assert {r["data_source"] for r in beta} == {"bootcamp/beta"}
    assert all(list(r["extra_info"]["tools_kwargs"]) == ["calc2"] for r in beta)  # tool_config_path
    assert all(r["extra_info"]["seed"] == 5 for r in beta)  # global_config_overrides
    groups = [r["extra_info"]["generator_name"] for r in beta]
    assert groups != sorted(groups, key=["easy", "medium", "hard"].index)  # the config's shuffle: true


def test_concatenated_outputs_are_shuffled_with_the_seed(cfg: Path, tmp_path: Path) -> None:
    config = str(cfg / "instruction_config.yaml")
    reg = registry(tmp_path / "reg.jsonl", {"data_source": "bootcamp/one", "instruction_config_path": config},
                   {"data_source": "bootcamp/two", "instruction_config_path": config, "gen_parquet": True})
    outs = []
    for name, flags in (("a", []), ("b", []), ("c", ["--no-shuffle"]), ("d", ["--seed", "9"])):
        gen("--registry", reg, "-o", tmp_path / name, "--split-samples", "train:10", "--concat", *flags)
        outs.append((tmp_path / name / "train.jsonl").read_bytes())
    a, b, unshuffled, other_seed = outs

    def in_order(name: str) -> list[dict]:
        """The bootcamps' own rows in registry order, numbered as the concatenation numbers them."""
        out = []
        for before, bc in enumerate(("one", "two")):
            own = rows(tmp_path / name / bc / "train.jsonl")
            assert sorted(row["extra_info"]["index"] for row in own) == list(range(10))  # each counts from 0
            for row in own:
                row["extra_info"]["index"] += 10 * before
            out += own
        return out

    def parsed(data: bytes) -> list[dict]:
        return [orjson.loads(line) for line in data.splitlines()]

    assert a == b  # seeded: the same bytes every run
    assert parsed(a) != in_order("a")
    assert sorted(parsed(a), key=orjson.dumps) == sorted(in_order("a"), key=orjson.dumps)
    assert parsed(unshuffled) == in_order("c")  # --no-shuffle: registry order (and each split unshuffled too)
    assert other_seed != a
    for data in (a, unshuffled, other_seed):  # extra_info.index is unique in the concatenated split
        assert sorted(row["extra_info"]["index"] for row in parsed(data)) == list(range(20))
    assert read_parquet(tmp_path / "a" / "train.parquet") == parsed(a)


def test_the_configs_gen_parquet_is_honoured(cfg: Path, tmp_path: Path) -> None:
    config = cfg / "instruction_config.yaml"
    config.write_text(config.read_text().replace("shuffle: true", "shuffle: true\n  gen_parquet: true"))
    gen("--config", config, "--split-samples", "train:6", "-o", tmp_path / "out")
    assert read_parquet(tmp_path / "out" / "train.parquet") == rows(tmp_path / "out" / "train.jsonl")
    assert str(pq.read_schema(tmp_path / "out" / "train.parquet").field("prompt").type).startswith("list<")
    # a registry line (or an override) turns it off again
    gen("--config", config, "--split-samples", "train:6", "-o", tmp_path / "off",
        "--global-config-overrides", '{"gen_parquet": false}')
    assert not (tmp_path / "off" / "train.parquet").exists()


@pytest.mark.parametrize("line, message", [
    ({"shuffle": "yes"}, "shuffle must be true or false"),
    ({"split_samples": "train:x"}, "needs a count"),
    ({"global_config_overrides": "{nope"}, "invalid JSON"),
    ({"yaml_tool_path": "a.yaml", "tool_config_path": "b.yaml"}, "name different files"),
    ({"output_dirr": "x"}, "did you mean 'output_dir'"),
])
def test_bad_registry_keys_name_the_line(tmp_path: Path, line: dict, message: str) -> None:
    reg = registry(tmp_path / "reg.jsonl", {"data_source": "bootcamp/x", **line})
    with pytest.raises(ConfigError, match=message) as info:
        load_registry_file(reg)
    assert f"{reg}:1" in str(info.value)


def test_a_collection_bootcamp_keeps_its_prefix(tmp_path: Path) -> None:
    # a registry line naming a collection's bootcamp writes the rows `bc-gen fl/cellular_automaton` writes (the
    # prefix was cut to `bootcamp/cellular_automaton`, a name bc-eval then refused)
    reg = registry(tmp_path / "reg.jsonl", {"data_source": "bootcamp/fl/cellular_automaton",
                                            "split_samples": {"train": 3}, "shuffle": False,
                                            "output_dir": str(tmp_path / "out")})
    gen("--registry", reg)
    made = rows(tmp_path / "out" / "train.jsonl")
    assert [r["data_source"] for r in made] == ["bootcamp/fl/cellular_automaton"] * 3
    assert all(r["id"].startswith("fl/cellular_automaton-") for r in made)
    played = subprocess.run([str(Path(BC_GEN).with_name("bc-eval")), "--model", "builtin:reference"],
                            input=(tmp_path / "out" / "train.jsonl").read_bytes(), capture_output=True, timeout=180)
    assert played.returncode == 0, played.stderr.decode()  # bc-eval knows the bootcamp the rows name
    assert [orjson.loads(line)["score"] for line in played.stdout.splitlines()] == [1.0] * 3
