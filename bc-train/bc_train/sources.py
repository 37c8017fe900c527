"""What a run knows of each data_source: its verifier, tools and interaction, from the installed bootcamps or a
seed `bootcamp_registry.jsonl` (`--registry`). A data_source neither knows is refused here, at bc-train time,
naming it and the first row that uses it, never inside the reward function halfway through training.

    sources = resolve_sources(records, registry=Path("bootcamp_registry.jsonl"))
    sources["bootcamp/arithmetic"].reward_class   # 'bootcamps.arithmetic.reward.ArithmeticRewardCalculator'
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bc_common.errors import InputError, RegistryError
from bc_common.jsonl import Record
from bc_common.manifest import Bootcamp
from bc_common.registry import bootcamp_from_entry, get_bootcamp, load_registry_file
from bc_common.tool_config import ToolSpec


@dataclass
class Source:
    """One data_source of a run."""

    data_source: str
    reward: type  # the verifier class
    reward_class: str  # its dotted path: what the reward function loads in the training processes
    tools: list[ToolSpec]
    interaction_config: Path | None  # a registry line's interaction YAML (installed bootcamps name a class)
    registry_line: str | None = None  # where it came from when not an installed bootcamp


def _dotted(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def resolve_sources(records: list[Record], registry: Path | None = None) -> dict[str, Source]:
    """Every data_source of `records`, resolved (registry lines first, then installed bootcamps)."""
    entries = {e.data_source: e for e in load_registry_file(registry)} if registry else {}
    out: dict[str, Source] = {}
    for rec in records:
        ds = rec.data.get("data_source") if isinstance(rec.data, dict) else None
        if not isinstance(ds, str) or ds in out:
            continue
        entry = entries.get(ds)
        try:
            manifest: Bootcamp = bootcamp_from_entry(entry) if entry is not None else get_bootcamp(ds)
        except RegistryError as exc:
            where = f" from {registry}" if entry is not None else ""
            hint = "" if entry is not None or registry else " (a seed registry bootcamp? pass --registry FILE)"
            raise InputError(f"data_source {ds!r} cannot be scored{where}: {exc}{hint}", source=rec.source,
                             line=rec.line, field="data_source") from None
        out[ds] = Source(ds, manifest.reward, _dotted(manifest.reward), manifest.tool_specs(),
                         manifest.interaction_config,
                         entry.source if entry is not None else None)
    return out
