"""`bc-gen --registry FILE`: many bootcamps in parallel; one failure never deletes another's output.

A registry line's own keys (`split_samples`, `output_dir`, `shuffle`, `gen_parquet`, `global_config_overrides`,
`tool_config_path`/`yaml_tool_path`, `interaction_config_path`/`yaml_interaction_path`) win over the command
line's values for that bootcamp, which win over its instruction config's `global_config`.
"""
from __future__ import annotations

import concurrent.futures as cf
import multiprocessing as mp
import sys
import traceback
from dataclasses import dataclass, replace
from pathlib import Path

from bc_common.errors import ConfigError, RegistryError
from bc_common.jsonl import AtomicFile, dumps, loads
from bc_common.parquet_io import write_parquet
from bc_common.registry import RegistryEntry, get_bootcamp, load_registry_file
from bc_common.seeding import rng_for

from .splits import ConfigRun, generate_splits, load_config, output_formats, write_split


def entry_run(entry: RegistryEntry, base: ConfigRun) -> ConfigRun:
    """The run of one registry line: its keys over the command line's."""
    return replace(
        base, config_path=entry.instruction_config_path, bootcamp=entry.name,
        manifest=None if entry.instruction_config_path else entry.data_source,
        tool_config=entry.yaml_tool_path or base.tool_config,
        interaction_config=entry.yaml_interaction_path or base.interaction_config,
        split_samples=entry.split_samples if entry.split_samples is not None else base.split_samples,
        shuffle=entry.shuffle if entry.shuffle is not None else base.shuffle,
        gen_parquet=entry.gen_parquet if entry.gen_parquet is not None else base.gen_parquet,
        overrides={**base.overrides, **entry.global_config_overrides})


def entry_dir(entry: RegistryEntry, out_dir: Path) -> Path:
    """Where a line's splits go: its `output_dir` (as the seed), else OUT/<name>."""
    return entry.output_dir if entry.output_dir is not None else out_dir / entry.name


def _one(entry: RegistryEntry, base: ConfigRun, out_dir: Path) -> dict[str, str]:
    run = entry_run(entry, base)
    formats = output_formats(run, load_config(run))
    files = {}
    for split, lines, _stats in generate_splits(run):
        for path in write_split(lines, entry_dir(entry, out_dir), split, formats):
            files[f"{split}.{path.suffix.lstrip('.')}"] = str(path)
    return files


def _runnable(entries: list[RegistryEntry], registry: Path,
              continue_on_error: bool) -> tuple[list[RegistryEntry], int]:
    """The entries that can run: a line without `instruction_config_path` uses its installed bootcamp's config;
    a missing config file stops the run before anything is generated (or, with continue_on_error, counts as
    one failure)."""
    runnable, failures = [], 0
    for entry in entries:
        if entry.instruction_config_path is None:
            try:
                bootcamp = get_bootcamp(entry.data_source)
            except RegistryError:
                bootcamp = None
            if bootcamp is not None and bootcamp.instruction_config is None:
                runnable.append(entry)  # an installed bootcamp's own groups
                continue
            entry.instruction_config_path = bootcamp.instruction_config if bootcamp else None
        if entry.instruction_config_path is None or not entry.instruction_config_path.is_file():
            what = (f"instruction config not found: {entry.instruction_config_path} (looked in the working "
                    f"directory and {registry.parent})" if entry.instruction_config_path
                    else "no instruction_config_path, and no installed bootcamp of that name has one")
            if not continue_on_error:
                raise ConfigError(f"{entry.source}: {entry.name}: {what}")
            print(f"bc-gen: {entry.name}: FAILED ({entry.source}): {what}", file=sys.stderr)
            failures += 1
            continue
        runnable.append(entry)
    return runnable, failures


@dataclass
class Concat:
    """How `--concat` joins the bootcamps' splits: shuffled with the run's seed (the seed shuffled them too)."""

    shuffle: bool = True
    seed: int = 0


def run_registry(registry: Path, base: ConfigRun, out_dir: Path, *, jobs: int = 1,
                 continue_on_error: bool = False, concat: bool = False, concat_shuffle: bool = True) -> int:
    """Generate every registry entry into `out_dir/<name>/<split>.jsonl` (or the line's output_dir). Returns the
    number of failures."""
    entries, failures = _runnable(load_registry_file(registry), registry, continue_on_error)
    results: dict[str, dict[str, str]] = {}
    ctx = mp.get_context("fork") if sys.platform != "win32" else None
    with cf.ProcessPoolExecutor(max_workers=max(1, jobs), mp_context=ctx) as pool:
        futures = {pool.submit(_one, e, replace(base, jobs=1), out_dir): e for e in entries}
        for fut in cf.as_completed(futures):
            entry = futures[fut]
            try:
                results[entry.name] = fut.result()
                print(f"bc-gen: {entry.name}: ok ({', '.join(sorted(results[entry.name]))})", file=sys.stderr)
            except Exception as exc:
                failures += 1
                detail = str(exc) or traceback.format_exception_only(type(exc), exc)[-1].strip()
                print(f"bc-gen: {entry.name}: FAILED ({entry.source}): {detail}", file=sys.stderr)
                if not continue_on_error:
                    for other in futures:
                        other.cancel()
                    break
    if concat and results:
        concatenate([e.name for e in entries], results, out_dir,
                     Concat(shuffle=concat_shuffle, seed=base.seed or 0))
    return failures


def concatenate(names: list[str], results: dict[str, dict[str, str]], out_dir: Path, how: Concat) -> None:
    """Write OUT/<split>.jsonl (and .parquet when a bootcamp wrote parquet) from every bootcamp's split, in
    registry order, then shuffled with the seed unless `how.shuffle` is false. `extra_info.index` stays unique in
    the file: each bootcamp's rows are numbered after those of the bootcamps before it."""
    keys = {k for files in results.values() for k in files}
    for split in sorted({k.rsplit(".", 1)[0] for k in keys}):
        lines: list[bytes] = []
        for name in names:
            path = results.get(name, {}).get(f"{split}.jsonl")
            if path:
                data = Path(path).read_bytes()
                offset = len(lines)
                lines.extend(_renumbered(line, offset) + b"\n" for line in data.splitlines() if line.strip())
        if how.shuffle:
            rng_for("concat", split, how.seed).shuffle(lines)
        with AtomicFile(out_dir / f"{split}.jsonl") as fh:
            fh.writelines(lines)
        written = [out_dir / f"{split}.jsonl"]
        if f"{split}.parquet" in keys:
            write_parquet([loads(line) for line in lines], out_dir / f"{split}.parquet")
            written.append(out_dir / f"{split}.parquet")
        print(f"bc-gen: concatenated {', '.join(map(str, written))}" + (" (shuffled)" if how.shuffle else ""),
              file=sys.stderr)


def _renumbered(line: bytes, offset: int) -> bytes:
    """The row with `extra_info.index` moved up by `offset` (the line itself when there is nothing to move)."""
    if not offset:
        return line
    row = loads(line)
    extra = row.get("extra_info") if isinstance(row, dict) else None
    if not isinstance(extra, dict) or type(extra.get("index")) is not int:
        return line
    extra["index"] += offset
    return dumps(row).rstrip(b"\n")
