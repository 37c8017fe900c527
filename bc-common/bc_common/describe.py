"""What `bc-gen --list` and `bc-gen --describe` say about a bootcamp, and its seed-format YAML configs.

    facts = listing("arithmetic")            # name, source, tools, interaction, groups, description
    details = description("arithmetic")      # + config fields with defaults, tool schemas, one example task
    write_seed_configs("arithmetic", "cfg/") # instruction_config.yaml, tool_config.yaml, interaction_config.yaml
"""
from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import yaml

from .catalog import available, load
from .classes import dotted_name
from .errors import RegistryError
from .manifest import Bootcamp, Unavailable
from .tool_config import interaction_config_doc, tool_config_doc


def listing(name: str) -> dict[str, Any]:
    """One line of `bc-gen --list`: facts that need no task to be generated."""
    try:
        manifest = load(name)
    except RegistryError as exc:
        return {"name": name, "available": False, "reason": str(exc), "source": "", "tools": [],
                "interaction": False, "groups": [], "description": ""}
    if isinstance(manifest, Unavailable):
        return {"name": name, "available": False, "reason": manifest.reason, "install": manifest.hint,
                "source": manifest.source, "tools": [], "interaction": False, "groups": [],
                "description": manifest.description}
    interaction = manifest.interaction_spec()
    return {"name": name, "available": True, "source": manifest.source,
            "tools": [s.name for s in manifest.tool_specs()], "interaction": interaction.name if interaction else False,
            "groups": [g.name for g in manifest.group_list()], "description": manifest.description}


def listings(include_unavailable: bool = True) -> list[dict[str, Any]]:
    return [listing(n) for n in available(include_unavailable=include_unavailable)]


def config_fields(generator: type) -> list[dict[str, Any]]:
    """The generator's `Config` dataclass: name, type, default, and `bounds` where the field's metadata says."""
    config = getattr(generator, "Config", None)
    if not dataclasses.is_dataclass(config):
        return []
    out = []
    for f in dataclasses.fields(config):
        default = f.default if f.default is not dataclasses.MISSING else (
            f.default_factory() if f.default_factory is not dataclasses.MISSING else None)
        entry = {"name": f.name, "type": f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type)),
                 "default": default}
        for key in ("bounds", "help"):
            if key in f.metadata:
                entry[key] = f.metadata[key]
        out.append(entry)
    return out


def description(name: str) -> dict[str, Any]:
    """Everything `bc-gen --describe` shows, including one example task (task 0, seed 0)."""
    from .catalog import get_bootcamp
    from .tasks import TaskSet

    manifest = get_bootcamp(name)
    facts = listing(name)
    validate = getattr(getattr(manifest.generator, "Config", None), "validate", None)
    facts.update(
        generator=dotted_name(manifest.generator) if manifest.generator else None,
        reward=dotted_name(manifest.reward),
        policy=dotted_name(manifest.policy) if manifest.policy else None,
        baselines=[{"name": b.name, "model": f"builtin:baseline/{b.name}", "about": b.about,
                    "policy": dotted_name(b.policy), "blind": b.blind} for b in manifest.baselines],
        config=config_fields(manifest.generator) if manifest.generator else [],
        config_checks=(validate.__doc__ or "").strip() or None if validate else None,
        groups=[{"name": g.name, "ratio": g.ratio, "params": g.params,
                 **({"tools": list(g.tools)} if g.tools is not None else {})} for g in manifest.group_list()],
        tool_schemas=[s.tool_schema for s in manifest.tool_specs()],
        limits=manifest.limits or None,
        known_issues=dict((manifest.conformance or {}).get("known_issues") or {}) or None,
        small_answer_space=(manifest.conformance or {}).get("small_answer_space"),
        example=TaskSet(manifest)[0] if manifest.generator else None,
    )
    return facts


def seed_configs(bootcamp: Bootcamp) -> dict[str, dict[str, Any]]:
    """The bootcamp as the seed's three YAML documents, by file name (a file only where there is something)."""
    docs: dict[str, dict[str, Any]] = {}
    glob: dict[str, Any] = {"class_name": dotted_name(bootcamp.generator), "data_source": bootcamp.data_source,
                            "description": bootcamp.description, "default_seed": 0,
                            "default_split_samples": {"train": 1000, "test": 100}, "shuffle": True}
    specs = bootcamp.tool_specs()
    if specs:
        docs["tool_config.yaml"] = tool_config_doc(specs)
        glob["yaml_tool_path"] = "tool_config.yaml"
    interaction = bootcamp.interaction_spec()
    if interaction:
        docs["interaction_config.yaml"] = interaction_config_doc(interaction)
        glob["yaml_interaction_path"] = "interaction_config.yaml"
    groups = {g.name: {"config": dict(g.params), "generation_ratio": g.ratio} for g in bootcamp.group_list()}
    docs["instruction_config.yaml"] = {"instruction_generators": groups, "global_config": glob}
    return dict(sorted(docs.items(), key=lambda kv: kv[0] != "instruction_config.yaml"))


def yaml_text(doc: dict[str, Any]) -> str:
    return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=110)


def write_seed_configs(bootcamp: Bootcamp, folder: str | Path) -> list[Path]:
    """Write the seed-format YAML files of `bootcamp` into `folder` (created); returns their paths."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for file_name, doc in seed_configs(bootcamp).items():
        path = out / file_name
        path.write_text(yaml_text(doc), encoding="utf-8")
        paths.append(path)
    return paths
