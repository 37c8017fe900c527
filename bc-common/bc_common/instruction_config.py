"""The seed's instruction config (`instruction_generators` groups + `global_config`), strictly checked.

    instruction_generators:
      easy: {config: {min_terms: 2}, generation_ratio: 0.3}
      hard: {config: {min_terms: 8}, generation_ratio: 0.7, yaml_tool_path: tools.yaml}
    global_config:
      class_name: bootcamps.arithmetic.generator.ArithmeticInstructionGenerator
      default_seed: 999
      default_split_samples: {train: 1000, test: 100}
      shuffle: true
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .classes import dotted_name, load_class
from .config import check_keys, load_yaml, unknown_key_error
from .errors import ConfigError, RegistryError

GROUP_KEYS = {"config", "generation_ratio", "yaml_tool_path", "yaml_interaction_path"}
GLOBAL_KEYS = {"class_name", "enable_random_seed", "default_seed", "default_split_samples", "shuffle",
               "gen_parquet", "yaml_tool_path", "yaml_interaction_path", "data_source", "description"}


@dataclass
class GeneratorGroup:
    name: str
    params: dict[str, Any]
    ratio: float
    tool_config: Path | None = None
    interaction_config: Path | None = None


@dataclass
class InstructionConfig:
    path: Path
    class_name: str
    groups: list[GeneratorGroup]
    seed: int = 0
    split_samples: dict[str, int] = field(default_factory=dict)
    shuffle: bool = False
    gen_parquet: bool = False
    tool_config: Path | None = None
    interaction_config: Path | None = None
    bootcamp: str | None = None  # set when the config comes from a manifest
    tools: list[Any] = field(default_factory=list)  # a manifest's ToolSpecs (YAML configs name paths instead)
    interaction: Any = None  # a manifest's InteractionSpec

    @property
    def generator_class(self) -> type:
        return load_class(self.class_name)


def resolve_path(value: Any, base: Path, where: str) -> Path | None:
    """A path from a config: absolute, relative to the config's folder, or relative to the working dir."""
    if value in (None, ""):
        return None
    if not isinstance(value, str):
        raise ConfigError(f"{where}: expected a path string, got {value!r}")
    p = Path(value)
    if p.is_absolute():
        return p
    for candidate in (base / p, p):
        if candidate.exists():
            return candidate
    raise ConfigError(f"{where}: file not found: {value} (looked in {base} and the working directory)")


def parse_split_samples(text: str | dict | None) -> dict[str, int]:
    """'train:1000,test:100' (or a mapping) -> {'train': 1000, 'test': 100}."""
    if text in (None, ""):
        return {}
    items = text.items() if isinstance(text, dict) else (
        part.split(":", 1) if ":" in part else (part, None) for part in str(text).split(","))
    out: dict[str, int] = {}
    for name, count in items:
        name = str(name).strip()
        try:
            n = int(count)
        except (TypeError, ValueError):
            raise ConfigError(f"split samples: {name!r} needs a count, e.g. train:1000") from None
        if not name or n < 0 or isinstance(count, bool):
            raise ConfigError(f"split samples: bad entry {name!r}:{count!r}")
        if name in out:
            raise ConfigError(f"split samples: split {name!r} given twice")
        if name in (".", "..") or any(c in name for c in '/\\\0') or name.startswith("."):
            raise ConfigError(f"split samples: split name {name!r} cannot be a file name "
                              "(no '/', '\\', or leading '.')")
        out[name] = n
    return out


def load_instruction_config(path: str | Path, overrides: dict[str, Any] | None = None) -> InstructionConfig:
    """Read and check an instruction config; `overrides` replace `global_config` keys (the seed's
    --global-config-overrides)."""
    p = Path(path)
    data = load_yaml(p)
    if not isinstance(data, dict):
        raise ConfigError(f"{p}: expected a mapping with 'instruction_generators' and 'global_config'")
    check_keys(data, {"instruction_generators", "global_config"}, str(p))
    glob = dict(data.get("global_config") or {})
    if overrides:
        check_keys(overrides, GLOBAL_KEYS, f"{p}: global config overrides")
        glob.update(overrides)
    check_keys(glob, GLOBAL_KEYS, f"{p}: global_config")
    class_name = glob.get("class_name")
    if not class_name:
        raise ConfigError(f"{p}: global_config.class_name is required (the generator class path)")
    from .bootcamp import InstructionGenerator

    try:
        gen_cls = load_class(class_name, InstructionGenerator)
    except RegistryError as exc:
        raise RegistryError(f"{p}: global_config.class_name: {exc}") from None
    param_names = {f.name for f in dataclasses.fields(gen_cls.Config)} \
        if dataclasses.is_dataclass(getattr(gen_cls, "Config", None)) else set()
    base = p.parent
    groups_data = data.get("instruction_generators")
    if not isinstance(groups_data, dict) or not groups_data:
        raise ConfigError(f"{p}: 'instruction_generators' must map group names to settings")
    groups = []
    for name, entry in groups_data.items():
        where = f"{p}: instruction_generators.{name}"
        if not isinstance(entry, dict):
            raise ConfigError(f"{where}: expected a mapping")
        params = dict(entry.get("config") or {})
        for key, value in entry.items():
            if key in GROUP_KEYS:
                continue
            if key not in param_names:  # the seed allows parameters beside `config`
                raise unknown_key_error(str(key), GROUP_KEYS | param_names, where)
            params[key] = value
        for key in params:
            if key not in param_names:
                raise unknown_key_error(str(key), param_names, f"{where}.config")
        ratio = entry.get("generation_ratio", 1.0)
        if isinstance(ratio, bool) or not isinstance(ratio, (int, float)) or ratio < 0:
            raise ConfigError(f"{where}: generation_ratio must be a non-negative number")
        groups.append(GeneratorGroup(
            name=str(name), params=params, ratio=float(ratio),
            tool_config=resolve_path(entry.get("yaml_tool_path"), base, f"{where}.yaml_tool_path"),
            interaction_config=resolve_path(entry.get("yaml_interaction_path"), base,
                                            f"{where}.yaml_interaction_path"),
        ))
    if sum(g.ratio for g in groups) <= 0:
        raise ConfigError(f"{p}: generation_ratio values sum to zero")
    seed = glob.get("default_seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ConfigError(f"{p}: global_config.default_seed must be an integer")
    return InstructionConfig(
        path=p, class_name=class_name, groups=groups, seed=seed,
        split_samples=parse_split_samples(glob.get("default_split_samples")),
        shuffle=bool(glob.get("shuffle", False)), gen_parquet=bool(glob.get("gen_parquet", False)),
        tool_config=resolve_path(glob.get("yaml_tool_path"), base, f"{p}: global_config.yaml_tool_path"),
        interaction_config=resolve_path(glob.get("yaml_interaction_path"), base,
                                        f"{p}: global_config.yaml_interaction_path"),
    )


def instruction_config_of(bootcamp: Any) -> InstructionConfig:
    """A manifest's difficulty groups as an instruction config (seed, splits and shuffle at their defaults)."""
    if bootcamp.instruction_config:
        return load_instruction_config(bootcamp.instruction_config)
    if bootcamp.generator is None:
        raise ConfigError(f"bootcamp {bootcamp.name!r} has no generator")
    groups = [GeneratorGroup(g.name, dict(g.params), float(g.ratio)) for g in bootcamp.group_list()]
    return InstructionConfig(path=Path(f"<bootcamp {bootcamp.name}>"), class_name=dotted_name(bootcamp.generator),
                             groups=groups, bootcamp=bootcamp.name, tools=bootcamp.tool_specs(),
                             interaction=bootcamp.interaction_spec())


def allocate(total: int, ratios: list[float]) -> list[int]:
    """Split `total` by normalised ratios exactly (largest remainder; ties to the earlier group).

    >>> allocate(10, [0.1, 0.7, 0.1])
    [1, 8, 1]
    """
    weight = sum(ratios)
    if total <= 0 or weight <= 0:
        return [0] * len(ratios)
    exact = [total * r / weight for r in ratios]
    counts = [int(x) for x in exact]
    order = sorted(range(len(ratios)), key=lambda i: (-(exact[i] - counts[i]), i))
    for i in order[: total - sum(counts)]:
        counts[i] += 1
    return counts
