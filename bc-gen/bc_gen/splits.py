"""Generation from a seed-format instruction config: groups by exact ratio, splits disjoint by identity."""
from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bc_common.errors import ConfigError
from bc_common.instruction_config import InstructionConfig, allocate, load_instruction_config
from bc_common.jsonl import AtomicFile, loads, write_batched
from bc_common.parquet_io import write_parquet
from bc_common.seeding import rng_for
from bc_common.tasks import DedupKey, RowSpec

from .generate import GenStats, generate


@dataclass
class ConfigRun:
    """Options of `bc-gen --config`."""

    config_path: Path
    split_samples: dict[str, int] = field(default_factory=dict)
    seed: int | None = None
    shuffle: bool | None = None
    jobs: int = 1
    tool_config: Path | None = None
    interaction_config: Path | None = None
    no_tool: bool = False
    no_interaction: bool = False
    overrides: dict[str, Any] = field(default_factory=dict)
    bootcamp: str | None = None
    params: dict[str, Any] = field(default_factory=dict)  # --set: applied to every group
    gen_parquet: bool | None = None  # None: the config's global_config.gen_parquet decides
    manifest: str | None = None  # generate an installed bootcamp's groups instead of `config_path`


def output_formats(run: ConfigRun, cfg: InstructionConfig) -> tuple[str, ...]:
    """JSONL, plus parquet when the run asks for it or (when it says nothing) the config's gen_parquet does."""
    parquet = cfg.gen_parquet if run.gen_parquet is None else run.gen_parquet
    return ("jsonl", "parquet") if parquet else ("jsonl",)


def bootcamp_name(cfg: InstructionConfig, explicit: str | None) -> str:
    """The bootcamp a config generates for: explicit, else the bootcamp whose package holds the generator, else
    the generator's `name`, else its class name."""
    if explicit:
        return explicit.removeprefix("bootcamp/")  # a collection's name keeps its prefix (fl/cellular_automaton)
    if cfg.bootcamp:
        return cfg.bootcamp
    from bc_common.catalog import name_of_module

    cls = cfg.generator_class
    return (name_of_module(cls.__module__) or getattr(cls, "name", "")
            or cls.__name__.replace("InstructionGenerator", "").lower())


def _tool_specs(path: Path | None, fallback: list) -> list:
    from bc_common.tool_config import load_tool_config

    return load_tool_config(path) if path else list(fallback)


def _interaction_spec(path: Path | None, fallback: Any) -> Any:
    from bc_common.tool_config import load_interaction_config

    return load_interaction_config(path) if path else fallback


def specs_for_split(cfg: InstructionConfig, run: ConfigRun, split: str, count: int,
                    seed: int) -> list[tuple[RowSpec, int]]:
    name = bootcamp_name(cfg, run.bootcamp)
    out = []
    offset = 0  # the groups' rows are numbered after each other: extra_info.index is unique in the split
    for group, n in zip(cfg.groups, allocate(count, [g.ratio for g in cfg.groups]), strict=True):
        tools = [] if run.no_tool else _tool_specs(group.tool_config or run.tool_config or cfg.tool_config,
                                                   cfg.tools)
        inter = None if run.no_interaction else _interaction_spec(
            group.interaction_config or run.interaction_config or cfg.interaction_config, cfg.interaction)
        spec = RowSpec(bootcamp=name, generator_class=cfg.class_name, params={**group.params, **run.params},
                       split=split, base_seed=seed, generator_name=group.name, tools=tools,
                       interaction=inter, source=f"{cfg.path}: instruction_generators.{group.name}",
                       index_offset=offset)
        out.append((spec, n))
        offset += n
    return out


def load_config(run: ConfigRun) -> InstructionConfig:
    """The run's instruction config: an installed bootcamp's groups (`run.manifest`), or the YAML file."""
    if run.manifest:
        from bc_common.catalog import get_bootcamp
        from bc_common.instruction_config import instruction_config_of

        return instruction_config_of(get_bootcamp(run.manifest))
    return load_instruction_config(run.config_path, run.overrides or None)


def generate_splits(run: ConfigRun, log=print) -> Iterator[tuple[str, list[bytes], GenStats]]:
    """Yield (split, row lines, stats) per split, in the config's split order. Later splits never repeat an
    identity of an earlier one."""
    cfg = load_config(run)
    splits = run.split_samples or cfg.split_samples or {"train": 100}
    seed = cfg.seed if run.seed is None else run.seed
    shuffle = cfg.shuffle if run.shuffle is None else run.shuffle
    seen: set[DedupKey] = set()
    for split, count in splits.items():
        stats = GenStats()
        lines: list[bytes] = []
        for spec, n in specs_for_split(cfg, run, split, count, seed):
            lines.extend(generate(spec, range(n), jobs=run.jobs, seen=seen, stats=stats))
        if shuffle:
            rng_for("shuffle", bootcamp_name(cfg, run.bootcamp), split, seed).shuffle(lines)
        yield split, lines, stats


def write_split(lines: list[bytes], out_dir: Path, split: str, formats: tuple[str, ...],
                prefix: str = "") -> list[Path]:
    """Publish one split atomically as `<prefix><split>.jsonl` (and `.parquet`)."""
    paths = []
    if "jsonl" in formats:
        path = out_dir / f"{prefix}{split}.jsonl"
        with AtomicFile(path) as fh:
            fh.writelines(lines)
        paths.append(path)
    if "parquet" in formats:
        path = out_dir / f"{prefix}{split}.parquet"
        write_parquet([loads(line) for line in lines], path)
        paths.append(path)
    return paths


def run_config(run: ConfigRun, out_dir: Path | None, prefix: str = "") -> dict[str, int]:
    """Generate every split; write files into `out_dir` (or JSONL to stdout). Returns rows per split."""
    counts = {}
    formats = output_formats(run, load_config(run))
    if out_dir is None and "parquet" in formats:
        if run.gen_parquet:
            raise ConfigError("parquet output needs -o DIR")
        print("bc-gen: note: the config's gen_parquet needs -o DIR; writing JSONL to stdout only", file=sys.stderr)
    for split, lines, stats in generate_splits(run):
        counts[split] = stats.rows
        note = f", {stats.regenerated} duplicates regenerated" if stats.regenerated else ""
        if out_dir is None:
            write_batched(sys.stdout.buffer, lines)  # joined: one system call a batch where stdout is unbuffered
            sys.stdout.buffer.flush()
            print(f"bc-gen: {split}: {stats.rows} rows{note}", file=sys.stderr)
        else:
            paths = write_split(lines, out_dir, split, formats, prefix)
            print(f"bc-gen: {split}: {stats.rows} rows{note} -> {', '.join(map(str, paths))}", file=sys.stderr)
    return counts
