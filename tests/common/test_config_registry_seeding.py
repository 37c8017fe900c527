from dataclasses import dataclass

import pytest

from bc_common.config import build_dataclass, parse_assignments
from bc_common.errors import ConfigError, RegistryError
from bc_common.instruction_config import allocate, load_instruction_config
from bc_common.registry import available, get_bootcamp, load_class, load_registry_file
from bc_common.seeding import rng_for, seed_of
from bc_common.tool_config import load_tool_config
from tests.seed_configs import seed_configs


@dataclass
class Cfg:
    depth: int = 1
    name: str = "x"
    ratio: float = 0.5


def test_unknown_key_names_key_file_and_suggestion():
    with pytest.raises(ConfigError) as err:
        build_dataclass(Cfg, {"dpeth": 3}, source="conf.yaml")
    assert "conf.yaml" in str(err.value) and "'dpeth'" in str(err.value) and "'depth'" in str(err.value)


def test_wrong_type_is_refused():
    with pytest.raises(ConfigError, match="expected int"):
        build_dataclass(Cfg, {"depth": "three"})
    assert build_dataclass(Cfg, {"ratio": 1}).ratio == 1.0


def test_parse_assignments():
    assert parse_assignments(["a=3", "b=0.5", "c=true", "d=hello", "e=[1, 2]"]) == \
        {"a": 3, "b": 0.5, "c": True, "d": "hello", "e": [1, 2]}
    with pytest.raises(ConfigError):
        parse_assignments(["novalue"])


def test_largest_remainder_allocation():
    assert allocate(10, [0.1, 0.7, 0.1]) == [1, 8, 1]
    assert allocate(7, [1, 1, 1]) == [3, 2, 2]
    assert allocate(100, [0.3, 0.5, 0.2]) == [30, 50, 20]
    assert sum(allocate(999, [0.13, 0.29, 0.58])) == 999
    assert allocate(5, [0, 1]) == [0, 5]


def test_seeds_are_stable_and_distinct():
    assert seed_of("arithmetic", "abc", "train", 3, 7) == seed_of("arithmetic", "abc", "train", 3, 7)
    seeds = {seed_of("arithmetic", "abc", split, i, 7) for split in ("train", "test") for i in range(1000)}
    assert len(seeds) == 2000
    assert seed_of("a", "h", "train", 1, 0) != seed_of("a", "h", "train", 0, 1)  # no `seed + idx` aliasing
    assert rng_for("t", 1).random() == rng_for("t", 1).random()


def test_registry_finds_entry_points():
    assert {"arithmetic", "noop"} <= set(available())
    assert get_bootcamp("bootcamp/arithmetic").name == "arithmetic"
    with pytest.raises(RegistryError, match="did you mean 'arithmetic'"):
        get_bootcamp("arithmetc")
    with pytest.raises(RegistryError):
        load_class("bootcamps.arithmetic.nope.Missing")


def test_seed_registry_file(tmp_path):
    reg = tmp_path / "bootcamp_registry.jsonl"
    reg.write_text(f'{{"instruction_config_path": "{seed_configs()}/instruction_config.yaml", '
                   '"data_source": "bootcamp/arithmetic", '
                   '"reward_calculator_class": "bootcamps.arithmetic.reward.ArithmeticRewardCalculator"}\n'
                   '{"data_source": "bootcamp/x", "typo_key": 1}\n')
    with pytest.raises(ConfigError, match=r"bootcamp_registry.jsonl:2: unknown key 'typo_key'"):
        load_registry_file(reg)


def test_tool_and_interaction_configs_are_checked(tmp_path):
    specs = load_tool_config(seed_configs() / "tool_config.yaml")
    assert [s.name for s in specs] == ["calculate"]
    assert get_bootcamp("arithmetic").interaction_spec().name == "arithmetic_feedback"
    bad = tmp_path / "tools.yaml"
    bad.write_text("tools:\n  - class_name: x.Y\n    tool_shema: {}\n")
    with pytest.raises(ConfigError, match="unknown key 'tool_shema'.*did you mean 'tool_schema'"):
        load_tool_config(bad)
    bad.write_text("tools:\n  - class_name: x.Y\n    tool_schema:\n      type: function\n      function:\n"
                   "        name: 'bad name!'\n")
    with pytest.raises(ConfigError, match="tool name"):
        load_tool_config(bad)


def test_instruction_config_misspelled_key(tmp_path):
    src = (seed_configs() / "instruction_config.yaml").read_text()
    bad = tmp_path / "instr.yaml"
    bad.write_text(src.replace("max_digits: 2", "max_digit: 2").replace("tool_config.yaml", str(
        seed_configs() / "tool_config.yaml")).replace("interaction_config.yaml", str(
            seed_configs() / "interaction_config.yaml")))
    with pytest.raises(ConfigError) as err:
        load_instruction_config(bad)
    assert str(bad) in str(err.value) and "'max_digit'" in str(err.value) and "max_digits" in str(err.value)
    bad.write_text(src.replace("shuffle: true", "shufle: true"))
    with pytest.raises(ConfigError, match="global_config: unknown key 'shufle'"):
        load_instruction_config(bad)
