"""Find classes by dotted path, and bootcamps in the seed's `bootcamp_registry.jsonl`.

Installed bootcamps are found by `bc_common.catalog` (re-exported here: `available`, `get_bootcamp`).
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from .config import check_keys
from .errors import ConfigError, RegistryError
from .manifest import Bootcamp


def load_class(dotted: str) -> Any:
    """Import `package.module.Name` (or `package.module:Name`)."""
    if not isinstance(dotted, str) or not dotted.strip():
        raise RegistryError(f"expected a dotted class path, got {dotted!r}")
    module_name, sep, attr = dotted.partition(":")
    if not sep:
        module_name, _, attr = dotted.rpartition(".")
    if not module_name or not attr:
        raise RegistryError(f"{dotted!r} is not a dotted path like package.module.Class")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise RegistryError(f"cannot import {module_name!r} (for {dotted!r}): {exc}") from None
    try:
        obj = module
        for part in attr.split("."):
            obj = getattr(obj, part)
    except AttributeError:
        raise RegistryError(f"module {module_name!r} has no {attr!r}") from None
    return obj


@dataclass
class RegistryEntry:
    """One line of the seed's `bootcamp_registry.jsonl`."""

    data_source: str
    instruction_config_path: Path | None = None
    yaml_tool_path: Path | None = None
    yaml_interaction_path: Path | None = None
    reward_calculator_class: str | None = None
    source: str = ""

    @property
    def name(self) -> str:
        return self.data_source.split("/", 1)[-1]


_REGISTRY_KEYS = {"data_source", "instruction_config_path", "yaml_tool_path", "yaml_interaction_path",
                  "reward_calculator_class", "name", "description"}


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
        ))
    return entries


def bootcamp_from_entry(entry: RegistryEntry) -> Bootcamp:
    """A manifest built from a registry line (generator class from its instruction config)."""
    from .instruction_config import load_instruction_config

    generator = None
    if entry.instruction_config_path:
        cfg = load_instruction_config(entry.instruction_config_path)
        generator = load_class(cfg.class_name)
    reward = load_class(entry.reward_calculator_class) if entry.reward_calculator_class else None
    if reward is None:
        raise RegistryError(f"{entry.source}: reward_calculator_class is required")
    return Bootcamp(name=entry.name, description=f"from {entry.source}", generator=generator, reward=reward,
                    tool_config=entry.yaml_tool_path, interaction_config=entry.yaml_interaction_path,
                    instruction_config=entry.instruction_config_path, source=entry.source)


from .catalog import GROUP, available, get_bootcamp  # noqa: E402,F401  (the registry's public names)
