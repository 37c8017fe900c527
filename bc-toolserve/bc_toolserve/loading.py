"""Load the tools a worker serves: bootcamp names, a tool config YAML, or a bootcamp registry JSONL."""
from __future__ import annotations

from pathlib import Path

from bc_common.bootcamp import Tool
from bc_common.errors import ConfigError, RegistryError
from bc_common.registry import load_registry_file
from bc_common.tool_config import ToolSpec, load_tool_config


def load_specs(tools: str | Path | None = None, registry: str | Path | None = None) -> list[ToolSpec]:
    """Tool specs from `--tools` (a tool config YAML, or bootcamp names: `arithmetic,minesweeper`) or from every
    entry of `--registry F`; names must be unique."""
    if bool(tools) == bool(registry):
        raise ConfigError("give exactly one of --tools FILE|BOOTCAMPS or --registry FILE")
    if tools and not Path(tools).is_file() and not Path(tools).suffix:  # names have no suffix: `x.jsonl` is a file
        from bc_common.catalog import get_bootcamp

        specs = [s for name in str(tools).split(",") if name.strip() for s in get_bootcamp(name.strip()).tool_specs()]
    elif tools:
        specs = load_tool_config(tools)
    else:
        specs = []
        for entry in load_registry_file(registry):
            if entry.yaml_tool_path:
                specs.extend(load_tool_config(entry.yaml_tool_path))
            else:
                from bc_common.catalog import get_bootcamp

                try:
                    specs.extend(get_bootcamp(entry.data_source).tool_specs())
                except RegistryError:
                    continue  # a registry line of a bootcamp without tools of its own
    seen: dict[str, str] = {}
    for spec in specs:
        if spec.name in seen:
            raise ConfigError(f"{spec.source}: tool {spec.name!r} is also defined at {seen[spec.name]}")
        seen[spec.name] = spec.source
    if not specs:
        raise ConfigError(f"{tools or registry}: no tools to serve")
    return specs


def instantiate(specs: list[ToolSpec]) -> dict[str, Tool]:
    return {spec.name: spec.instantiate() for spec in specs}
