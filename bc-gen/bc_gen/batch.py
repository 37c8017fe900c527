"""`bc-gen --registry FILE`: many bootcamps in parallel; one failure never deletes another's output."""
from __future__ import annotations

import concurrent.futures as cf
import multiprocessing as mp
import sys
import traceback
from dataclasses import replace
from pathlib import Path

from bc_common.errors import ConfigError, RegistryError
from bc_common.jsonl import AtomicFile
from bc_common.registry import RegistryEntry, get_bootcamp, load_registry_file

from .splits import ConfigRun, generate_splits, write_split


def _one(entry: RegistryEntry, base: ConfigRun, out_dir: Path) -> dict[str, str]:
    run = replace(base, config_path=entry.instruction_config_path, bootcamp=entry.name,
                  manifest=None if entry.instruction_config_path else entry.data_source,
                  tool_config=base.tool_config or entry.yaml_tool_path,
                  interaction_config=base.interaction_config or entry.yaml_interaction_path)
    files = {}
    for split, lines, _stats in generate_splits(run):
        for path in write_split(lines, out_dir / entry.name, split, run.formats):
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


def run_registry(registry: Path, base: ConfigRun, out_dir: Path, *, jobs: int = 1,
                 continue_on_error: bool = False, concat: bool = False) -> int:
    """Generate every registry entry into `out_dir/<name>/<split>.jsonl`. Returns the number of failures."""
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
        for key in sorted({k for files in results.values() for k in files if k.endswith(".jsonl")}):
            with AtomicFile(out_dir / key) as fh:
                for name in (e.name for e in entries):
                    if key in results.get(name, {}):
                        fh.write(Path(results[name][key]).read_bytes())
            print(f"bc-gen: concatenated {out_dir / key}", file=sys.stderr)
    return failures
