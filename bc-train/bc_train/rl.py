"""Emit an RL run directory from task rows: parquet, tool and agent-loop YAMLs, config.yaml, run.sh, README.
`bc_train.emit.emit_run` checks the rows and decides the split first; the rows are read again to write them.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import orjson

from bc_common.environment import identity_of
from bc_common.errors import ConfigError, InputError
from bc_common.identity import validate_identity
from bc_common.images import dataset_folder
from bc_common.jsonl import Record, atomic_write_bytes, current_umask
from bc_common.tool_config import ToolSpec, load_tool_config

from . import verl_config as vc
from .inputs import RunInputs
from .parquet_rows import IMAGES, Batches, ParquetSink, SchemaOf, ShapeCheck, rl_row
from .run_dir import clear_previous_run
from .sources import Source, resolve_sources
from .split import MAX_HELD, Split


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


def as_task(rec: Record) -> Record:
    """The task row a trajectory carries (RL on the tasks of a run's trajectories); other rows as they are."""
    return Record(rec.data["input"], rec.source, rec.line) if isinstance(rec.data.get("input"), dict) else rec


class SourceSeen:
    """Where each data_source first appears among the rows, so that sources resolve (and the first unscorable one
    is named) in the order of a run that held its train rows and then its val rows."""

    def __init__(self) -> None:
        self._rows: dict[str, list[tuple[int, str, int]]] = {}  # ds -> its first MAX_HELD + 1 (row, source, line)
        self._unmarked: dict[str, tuple[int, str, int]] = {}
        self._marked: dict[str, tuple[int, str, int]] = {}
        self._val_file: dict[str, tuple[int, str, int]] = {}

    @staticmethod
    def _ds(rec: Record) -> str | None:
        ds = rec.data.get("data_source") if isinstance(rec.data, dict) else None
        return ds if isinstance(ds, str) else None

    def first_of(self, rec: Record, row: int, marked: bool) -> tuple[str, str, int] | None:
        """Note a row of FILES; returns (data_source, source, line) to keep with the row if it is held out."""
        ds = self._ds(rec)
        if ds is None:
            return None
        where = (row, rec.source, rec.line)
        seen = self._rows.setdefault(ds, [])
        if len(seen) <= MAX_HELD:
            seen.append(where)
        (self._marked if marked else self._unmarked).setdefault(ds, where)
        return ds, rec.source, rec.line

    def first_in_val(self, rec: Record, row: int) -> None:
        ds = self._ds(rec)
        if ds is not None:
            self._val_file.setdefault(ds, (row, rec.source, rec.line))

    def in_order(self, split: Split, held: dict[int, Any]) -> list[Record]:
        """One record per data_source (its first row), train rows' sources first, as resolve_sources takes them."""
        train: dict[str, tuple[int, str, int]]
        val: dict[str, tuple[int, str, int]] = {}
        if split.kind == "marked":
            train, val = self._unmarked, self._marked
        elif split.kind == "holdout":
            train = {}
            for ds, seen in self._rows.items():
                first = next((w for w in seen if w[0] not in held), None)
                if first is not None:
                    train[ds] = first
            for row, note in sorted(held.items()):
                if note is not None:
                    val.setdefault(note[0], (row, note[1], note[2]))
        else:  # every row of FILES trains (the one row of a single-row input validates too)
            train = {ds: seen[0] for ds, seen in self._rows.items()}
            val = self._val_file if split.kind == "val-file" else {}
        order = sorted(train.items(), key=lambda item: item[1][0])
        order += sorted(((ds, w) for ds, w in val.items() if ds not in train), key=lambda item: item[1][0])
        return [Record({"data_source": ds}, source, line) for ds, (_, source, line) in order]


def selected_rows(inputs: RunInputs, split: Split, to_task: bool) -> Iterator[tuple[str, int, Record]]:
    """("train", i, record) for every train row in order, then ("val", i, record) for the val rows."""
    i = 0
    for row, rec in enumerate(inputs.rows()):
        if to_task:
            rec = as_task(rec)
        if split.train(row, rec.data):
            yield "train", i, rec
            i += 1
    i = 0
    if split.val_file:
        for rec in inputs.val_rows():
            yield "val", i, rec
            i += 1
        return
    for row, rec in enumerate(inputs.rows()):
        if to_task:
            rec = as_task(rec)
        if split.val(row, rec.data):
            yield "val", i, rec
            i += 1


def _row(rec: Record, i: int, tool_names: list[str], per_source: dict[str, list[str]]) -> dict[str, Any]:
    try:
        return rl_row(rec.data, tool_names, per_source[rec.data["data_source"]], i, base=dataset_folder(rec.source))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise InputError(f"cannot convert task row: {exc}", source=rec.source, line=rec.line) from None
    except InputError as exc:
        raise InputError(exc.reason, source=rec.source, line=rec.line, field=exc.field) from None


def write_parts(rows: Callable[[], Iterator[tuple[str, int, Record]]], convert: Callable[..., dict[str, Any]],
                out_dir: Path, what: str, before_write: Callable[[], None]) -> dict[str, int]:
    """Convert the rows `rows()` yields (train then val) twice: once to check them all (conversion errors as they
    come, then the first shape error) and learn each file's schema, once to write train.parquet and val.parquet
    (the latter only when there are val rows). `before_write` runs between (clearing a previous run)."""
    shapes = ShapeCheck(what)
    shape_error: InputError | None = None
    schemas = {"train": SchemaOf(), "val": SchemaOf()}
    batches = {"train": Batches(), "val": Batches()}
    counts = {"train": 0, "val": 0}
    any_images = False
    for part, i, rec in rows():
        row = convert(rec, i)
        counts[part] += 1
        if IMAGES in row:
            any_images = True
        else:  # with_images_column: when any row has images every row gets the column, so check with it
            row = {**row, IMAGES: []}
        if shape_error is None:
            try:
                shapes.add(row)
            except InputError as exc:
                shape_error = exc
        full = batches[part].add(row, rec.raw)
        if full:
            schemas[part].add(full)
    if shape_error is not None:
        raise shape_error
    for part in schemas:
        schemas[part].add(batches[part].rest())
    before_write()
    out_dir.mkdir(parents=True, exist_ok=True)
    for part in ("train", "val"):
        if part == "val" and not counts["val"]:
            break
        schema = schemas[part].schema()
        if not any_images and IMAGES in schema.names:
            schema = schema.remove(schema.get_field_index(IMAGES))
        sink = ParquetSink(out_dir / f"{part}.parquet", schema)
        try:
            for got, i, rec in rows():
                if got != part:
                    if part == "train":
                        break  # the val rows come after every train row
                    continue
                row = convert(rec, i)
                if any_images:
                    row.setdefault(IMAGES, [])
                sink.add(row, rec.raw)
        except BaseException as exc:
            sink.abort(exc)
            raise
        sink.close()
    return counts


def emit_rl(inputs: RunInputs, firsts: list[Record], split: Split, out_dir: Path, opts: vc.TrainOptions,
            to_task: bool = False, tool_config: Path | None = None, registry: Path | None = None,
            force: bool = False) -> dict[str, Any]:
    """Write the RL run directory from checked task rows (emit.py's first pass); returns the manifest (also
    written as bc_train.json). `firsts`: the first row of each data_source, in train-then-val order. Every
    data_source must be scorable: an installed bootcamp or a line of `registry`."""
    resolved = resolve_sources(firsts, registry)

    def rows() -> Iterator[tuple[str, int, Record]]:
        return selected_rows(inputs, split, to_task)

    if any(src.registry_line for src in resolved.values()):  # installed bootcamps' identities were checked
        for _, _, rec in rows():
            source = resolved[rec.data["data_source"]]
            if source.registry_line:
                validate_identity(source.reward, identity_of(rec.data), rec.source, rec.line)
    sources = sorted(resolved)
    specs, per_source = _bootcamp_tools({ds: resolved[ds] for ds in sources}, tool_config)
    names = [s.name for s in specs]
    counts = write_parts(rows, lambda rec, i: _row(rec, i, names, per_source), out_dir, "RL",
                         lambda: clear_previous_run(out_dir) if force else None)
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
    return _finish(out_dir, "rl", opts, counts, sources, config,
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
