"""Emit an RL run directory from task rows: parquet, tool and agent-loop YAMLs, config.yaml, run.sh, README.

    emit_rl(task_records, Path("runs/a"), TrainOptions(model="Qwen/Qwen2.5-0.5B-Instruct"))
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

import orjson

from bc_common.environment import identity_of
from bc_common.errors import ConfigError, InputError
from bc_common.identity import validate_identity, validate_task_identity
from bc_common.images import dataset_folder
from bc_common.jsonl import Record, atomic_write_bytes, current_umask
from bc_common.records import check_task, task_id
from bc_common.tool_config import ToolSpec, load_tool_config

from . import verl_config as vc
from .parquet_rows import check_fixed_shapes, rl_row, with_images_column, write_rows
from .run_dir import clear_previous_run
from .sources import Source, resolve_sources

VAL_SPLITS = ("test", "val", "validation", "valid")


def split_holdout(items: list[Any], key: Any, max_n: int = 64) -> tuple[list[Any], list[Any]]:
    """Hold out ~5% (1..max_n) of `items` for validation, chosen by a hash of `key(item)` (stable)."""
    if len(items) < 2:
        return items, list(items)
    n = min(max_n, max(1, len(items) // 20))
    ranked = sorted(range(len(items)), key=lambda i: hashlib.blake2b(key(items[i]).encode(), digest_size=8).digest())
    held = set(ranked[:n])
    return [x for i, x in enumerate(items) if i not in held], [x for i, x in enumerate(items) if i in held]


def _bootcamp_tools(sources: dict[str, Source],
                    tool_config: Path | None) -> tuple[list[ToolSpec], dict[str, list[str]]]:
    """All tool specs of the run (config order, unique names) and each data_source's tool names."""
    specs: dict[str, ToolSpec] = {}
    per_source: dict[str, list[str]] = {}
    override = load_tool_config(tool_config) if tool_config else None
    for ds, source in sources.items():
        own = override if override is not None else source.tools
        per_source[ds] = [s.name for s in own]
        for spec in own:
            seen = specs.get(spec.name)
            if seen is not None and seen.class_name != spec.class_name:
                raise ConfigError(f"tool name {spec.name!r} is used by two classes ({seen.class_name}, "
                                  f"{spec.class_name}); one verl run needs unique tool names")
            specs.setdefault(spec.name, spec)
    return list(specs.values()), per_source


def _rows(records: list[Record], tool_names: list[str], per_source: dict[str, list[str]]) -> list[dict]:
    out = []
    for i, rec in enumerate(records):
        try:
            out.append(rl_row(rec.data, tool_names, per_source[rec.data["data_source"]], i,
                              base=dataset_folder(rec.source)))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise InputError(f"cannot convert task row: {exc}", source=rec.source, line=rec.line) from None
        except InputError as exc:
            raise InputError(exc.reason, source=rec.source, line=rec.line, field=exc.field) from None
    return out


def emit_rl(records: list[Record], out_dir: Path, opts: vc.TrainOptions, val_records: list[Record] | None = None,
            tool_config: Path | None = None, registry: Path | None = None, force: bool = False) -> dict[str, Any]:
    """Write the RL run directory; returns the manifest (also written as bc_train.json). Every data_source must
    be scorable: an installed bootcamp or a line of `registry`."""
    for rec in [*records, *(val_records or [])]:
        try:
            check_task(rec.data)
        except InputError as exc:
            raise InputError(exc.reason, source=rec.source, line=rec.line, field=exc.field) from None
        validate_task_identity(rec.data, rec.source, rec.line)  # a wrong ground truth never reaches training
    if not records:
        raise InputError("no task rows to train on")
    if val_records is None:
        marked = [r for r in records if (r.data.get("extra_info") or {}).get("split") in VAL_SPLITS]
        if marked and len(marked) < len(records):
            val_records = marked
            held = {id(r) for r in marked}
            records = [r for r in records if id(r) not in held]
        else:
            records, val_records = split_holdout(records, lambda r: task_id(r.data))
    resolved = resolve_sources([*records, *val_records], registry)
    for rec in [*records, *val_records]:  # installed bootcamps' identities were checked above
        source = resolved[rec.data["data_source"]]
        if source.registry_line:
            validate_identity(source.reward, identity_of(rec.data), rec.source, rec.line)
    sources = sorted(resolved)
    specs, per_source = _bootcamp_tools({ds: resolved[ds] for ds in sources}, tool_config)
    names = [s.name for s in specs]
    train, val = _rows(records, names, per_source), _rows(val_records, names, per_source)
    with_images_column(train + val)
    check_fixed_shapes(train + val, "RL")

    if force:
        clear_previous_run(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    write_rows(train, out_dir / "train.parquet")
    write_rows(val, out_dir / "val.parquet")
    vc.write_yaml(out_dir / "tool_config.yaml", vc.tool_config_doc(specs),
                  "# verl tools (bc-train): each wraps a bootcamp tool; state is kept per trajectory.")
    # registry bootcamps are not installed: the training processes find their parts through the run's files
    registered = {ds: src for ds, src in resolved.items() if src.registry_line}
    interactions = {ds: str(Path(src.interaction_config).resolve()) if src.interaction_config else ""
                    for ds, src in registered.items()}
    vc.write_yaml(out_dir / "agent_loops.yaml", vc.agent_loops_doc(interactions),
                  "# verl agent loops (bc-train). interaction_config_paths: {data_source: yaml} overrides the\n"
                  "# bootcamp's own interaction config.")
    reward_classes = {ds: src.reward_class for ds, src in registered.items()}
    config = vc.rl_config(opts, reward_classes)
    vc.write_yaml(out_dir / "config.yaml", config, vc.CONFIG_HEADER.format(what="GRPO"))
    return _finish(out_dir, "rl", opts, {"train": len(train), "val": len(val)}, sources, config,
                   ["train.parquet", "val.parquet", "tool_config.yaml", "agent_loops.yaml", "config.yaml"])


def _finish(out_dir: Path, mode: str, opts: vc.TrainOptions, counts: dict[str, int], sources: list[str],
            config: dict[str, Any], written: list[str]) -> dict[str, Any]:
    script = out_dir / "run.sh"
    script.write_text(vc.run_sh(mode, opts, config), encoding="utf-8")
    os.chmod(script, 0o777 & ~current_umask())  # executable, as far as the umask lets it be read
    bootcamps = [s.split("/", 1)[-1] for s in sources]
    (out_dir / "README.md").write_text(vc.readme(mode, opts, counts, bootcamps), encoding="utf-8")
    # `files`: what this run wrote, and all that a later --force may replace (never checkpoints or logs)
    manifest = {"mode": mode, "counts": counts, "data_sources": sources, "overrides": list(opts.overrides),
                "model": opts.model, "rollout": opts.rollout, "gpus_per_node": opts.gpus_per_node,
                "nodes": opts.nodes, "verl": "0.9.1", "files": [*written, "run.sh", "README.md", vc.MANIFEST]}
    atomic_write_bytes(out_dir / vc.MANIFEST, orjson.dumps(manifest, option=orjson.OPT_INDENT_2))
    return manifest
