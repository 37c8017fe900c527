"""The run directory `bc-train -o DIR` writes: refused when it holds anything, unless `--force`, which clears it
(only a previous bc-train run: a folder without bc_train.json is never cleared). Inputs inside DIR are refused
either way: the run would overwrite or delete them.

    check_run_dir_free(Path("runs/a"), force=False, inputs=["tasks.jsonl"])   # before reading anything
    clear_run_dir(Path("runs/a"))                                            # just before writing
"""
from __future__ import annotations

import shutil
from pathlib import Path

from bc_common.errors import UsageError
from bc_common.paths import refuse_inputs_inside_dir

from .verl_config import MANIFEST


def check_run_dir_free(out_dir: Path, *, force: bool, inputs: list[str]) -> None:
    """Raise UsageError unless `out_dir` can take a new run: missing or empty, or (with `force`) a previous
    bc-train run. Inputs may not live inside it."""
    refuse_inputs_inside_dir(out_dir, inputs, flag="-o")
    if out_dir.exists() and not out_dir.is_dir():
        raise UsageError(f"{out_dir}: -o names a file; give a folder for the run")
    if not out_dir.is_dir() or not any(out_dir.iterdir()):
        return
    if not force:
        raise UsageError(f"{out_dir}: the folder is not empty; choose another -o, or --force to clear it "
                         "(a previous run's files would otherwise be mixed with this one's)")
    if not (out_dir / MANIFEST).is_file():
        raise UsageError(f"{out_dir}: --force clears only a previous bc-train run (with {MANIFEST}); this folder "
                         "is not one, so nothing was touched: choose another -o")


def clear_run_dir(out_dir: Path) -> None:
    """Remove everything inside `out_dir` (checked by `check_run_dir_free`), keeping the folder."""
    if not out_dir.is_dir():
        return
    for child in out_dir.iterdir():
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child)
        else:
            child.unlink()
