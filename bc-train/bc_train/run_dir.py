"""The run directory `bc-train -o DIR` writes: refused when it holds anything, unless `--force`, which replaces
a previous bc-train run. Only the files that run's manifest (bc_train.json `files`) lists are removed:
checkpoints, logs and anything else bc-train did not write stay. Inputs inside DIR are refused either way.

    check_run_dir_free(Path("runs/a"), force=False, reads=[("FILES", "tasks.jsonl")])   # before reading anything
    clear_previous_run(Path("runs/a"))                                                 # just before writing
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from bc_common.errors import UsageError
from bc_common.locks import remove_stale_temps
from bc_common.paths import refuse_collisions

from .verl_config import MANIFEST, RUN_FILES


def check_run_dir_free(out_dir: Path, *, force: bool, reads: list[tuple[str, Any]]) -> None:
    """Raise UsageError unless `out_dir` can take a new run: missing or empty, or (with `force`) a previous
    bc-train run whose files the new run may replace. Nothing read (`reads`: (flag, path)) may live inside."""
    refuse_collisions(reads=reads, folders=[("-o", out_dir)])
    if out_dir.exists() and not out_dir.is_dir():
        raise UsageError(f"{out_dir}: -o names a file; give a folder for the run")
    if out_dir.is_dir():  # under the run's lock: temp files a killed bc-train left are stale
        for name in RUN_FILES:
            remove_stale_temps(out_dir / name, locked=True, prog="bc-train")
    if not out_dir.is_dir() or not any(out_dir.iterdir()):
        return
    if not force:
        raise UsageError(f"{out_dir}: the folder is not empty; choose another -o, or --force to replace the "
                         "previous bc-train run there (a previous run's files would otherwise be mixed with this "
                         "one's)")
    if not (out_dir / MANIFEST).is_file():
        raise UsageError(f"{out_dir}: --force replaces only a previous bc-train run (with {MANIFEST}); this folder "
                         "is not one, so nothing was touched: choose another -o")
    owned = set(previous_files(out_dir))
    foreign = [name for name in RUN_FILES if name not in owned and (out_dir / name).exists()]
    if foreign:
        raise UsageError(f"{out_dir / foreign[0]}: not written by bc-train (not in {MANIFEST}), and the new run "
                         "would write it: move it away first; nothing was touched")


def previous_files(out_dir: Path) -> list[str]:
    """The files the previous run in `out_dir` wrote, from its manifest (a manifest that lists none: the names
    bc-train writes). Names outside the folder are never returned."""
    try:
        manifest = orjson.loads((out_dir / MANIFEST).read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return [MANIFEST]
    listed = manifest.get("files") if isinstance(manifest, dict) else None
    if not isinstance(listed, list):
        return list(RUN_FILES)
    return [name for name in listed if isinstance(name, str) and name in RUN_FILES]


def clear_previous_run(out_dir: Path) -> None:
    """Remove the files of the previous run in `out_dir` (checked by `check_run_dir_free`), its manifest last;
    everything else stays."""
    if not out_dir.is_dir():
        return
    names = previous_files(out_dir)
    for name in sorted(names, key=lambda n: n == MANIFEST):  # the manifest last: an interrupted clear can resume
        path = out_dir / name
        if path.is_file() or path.is_symlink():
            path.unlink()
