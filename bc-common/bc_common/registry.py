"""The seed's `bootcamp_registry.jsonl`: one bootcamp per line, by dotted class paths and YAML paths.

Installed bootcamps are found by `bc_common.catalog` and classes loaded by `bc_common.classes` (both re-exported
here, where older code imports them: `available`, `get_bootcamp`, `load_class`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from .catalog import GROUP, available, get_bootcamp  # noqa: F401  (re-exported)
from .classes import load_class
from .config import check_keys, parse_json_object
from .errors import ConfigError, RegistryError
from .manifest import Bootcamp


@dataclass
class RegistryEntry:
    """One line of the seed's `bootcamp_registry.jsonl`. The generation keys (`split_samples`, `output_dir`,
    `shuffle`, `gen_parquet`, `global_config_overrides`) are None/empty when the line does not set them."""

    data_source: str
    instruction_config_path: Path | None = None
    yaml_tool_path: Path | None = None
    yaml_interaction_path: Path | None = None
    reward_calculator_class: str | None = None
    source: str = ""
    split_samples: dict[str, int] | None = None
    output_dir: Path | None = None
    shuffle: bool | None = None
    gen_parquet: bool | None = None
    global_config_overrides: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.data_source.split("/", 1)[-1]


_REGISTRY_KEYS = {"data_source", "instruction_config_path", "yaml_tool_path", "yaml_interaction_path",
                  "reward_calculator_class", "name", "description", "split_samples", "output_dir", "shuffle",
                  "gen_parquet", "global_config_overrides", "tool_config_path", "interaction_config_path"}
_ALIASES = {"tool_config_path": "yaml_tool_path", "interaction_config_path": "yaml_interaction_path"}


def _generation_keys(row: dict[str, Any], where: str) -> dict[str, Any]:
    """The seed's per-line generation keys, type-checked (the seed's batch generator honours them)."""
    from .instruction_config import parse_split_samples

    out: dict[str, Any] = {}
    for key in ("shuffle", "gen_parquet"):
        if row.get(key) is not None:
            if not isinstance(row[key], bool):
                raise ConfigError(f"{where}: {key} must be true or false, got {row[key]!r}")
            out[key] = row[key]
    if row.get("split_samples") is not None:
        try:
            out["split_samples"] = parse_split_samples(row["split_samples"])
        except ConfigError as exc:
            raise ConfigError(f"{where}: {exc}") from None
    if row.get("output_dir") is not None:
        if not isinstance(row["output_dir"], str) or not row["output_dir"].strip():
            raise ConfigError(f"{where}: output_dir must be a folder path")
        out["output_dir"] = Path(row["output_dir"])
    overrides = row.get("global_config_overrides")
    if overrides is not None:
        if isinstance(overrides, str):  # the seed's command line takes JSON text; accept it here too
            overrides = parse_json_object(overrides, f"{where}: global_config_overrides")
        if not isinstance(overrides, dict):
            raise ConfigError(f"{where}: global_config_overrides must be an object")
        out["global_config_overrides"] = overrides
    return out


def load_registry_file(path: str | Path) -> list[RegistryEntry]:
    """Read a registry JSONL. Relative paths resolve against the current directory, then the file's folder."""
    p = Path(path)
    try:
        lines = p.read_bytes().splitlines()
    except OSError as exc:
        raise ConfigError(f"{p}: cannot read: {exc.strerror or exc}") from None
    entries = []
    for lineno, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith(b"#"):
            continue
        where = f"{p}:{lineno}"
        try:
            row = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            raise ConfigError(f"{where}: invalid JSON: {exc}") from None
        if not isinstance(row, dict):
            raise ConfigError(f"{where}: expected an object")
        check_keys(row, _REGISTRY_KEYS, where)
        for alias, key in _ALIASES.items():  # the seed's batch generator reads both spellings
            if row.get(alias):
                if row.get(key) and row[key] != row[alias]:
                    raise ConfigError(f"{where}: {alias} and {key} name different files")
                row[key] = row[alias]
        ds = row.get("data_source") or (f"bootcamp/{row['name']}" if row.get("name") else None)
        if not ds:
            raise ConfigError(f"{where}: missing field 'data_source'")

        def resolve(key: str, row: dict = row) -> Path | None:
            value = row.get(key)
            if not value:
                return None
            candidate = Path(value)
            if candidate.is_absolute() or candidate.exists():
                return candidate
            beside = p.parent / candidate
            return beside if beside.exists() else candidate

        entries.append(RegistryEntry(
            data_source=ds,
            instruction_config_path=resolve("instruction_config_path"),
            yaml_tool_path=resolve("yaml_tool_path"),
            yaml_interaction_path=resolve("yaml_interaction_path"),
            reward_calculator_class=row.get("reward_calculator_class"),
            source=where,
            **_generation_keys(row, where),
        ))
    return entries


def bootcamp_from_entry(entry: RegistryEntry) -> Bootcamp:
    """A manifest built from a registry line (generator class from its instruction config)."""
    from .bootcamp import InstructionGenerator, RewardCalculator
    from .instruction_config import load_instruction_config

    generator = None
    if entry.instruction_config_path:
        cfg = load_instruction_config(entry.instruction_config_path)
        generator = load_class(cfg.class_name, InstructionGenerator)
    if not entry.reward_calculator_class:
        raise RegistryError(f"{entry.source}: reward_calculator_class is required")
    try:
        reward = load_class(entry.reward_calculator_class, RewardCalculator)
    except RegistryError as exc:
        raise RegistryError(f"{entry.source}: reward_calculator_class: {exc}") from None
    return Bootcamp(name=entry.name, description=f"from {entry.source}", generator=generator, reward=reward,
                    tool_config=entry.yaml_tool_path, interaction_config=entry.yaml_interaction_path,
                    instruction_config=entry.instruction_config_path, source=entry.source)

