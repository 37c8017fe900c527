"""Refuse a run whose output would overwrite one of its own inputs (`bc-eval X -o X` truncating X).

Paths are compared resolved (symlinks followed) and by file identity (st_dev, st_ino), so a hard link, a
symlink or `< X` on stdin is caught as well as the same name.

    refuse_output_among_inputs("runs.jsonl", ["tasks.jsonl"])      # raises UsageError naming the path
    refuse_inputs_inside_dir("runs/a", ["tasks.jsonl"], flag="-o")
"""
from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterable
from pathlib import Path

from .errors import UsageError

_STDIN = "-"


def _identity(path: str) -> tuple[int, int] | None:
    """(st_dev, st_ino) of a regular file ('-' = stdin when it is redirected from a file), else None."""
    try:
        st = os.fstat(sys.stdin.fileno()) if path == _STDIN else os.stat(path)
    except (OSError, ValueError, AttributeError):
        return None
    return (st.st_dev, st.st_ino) if stat.S_ISREG(st.st_mode) else None


def _resolved(path: str) -> Path | None:
    if path == _STDIN:
        return None
    try:
        return Path(path).resolve()
    except (OSError, RuntimeError):  # a symlink loop
        return None


def same_file(a: str | Path, b: str | Path) -> bool:
    """True when `a` and `b` name the same file: equal resolved paths, or the same (device, inode)."""
    a, b = str(a), str(b)
    ra, rb = _resolved(a), _resolved(b)
    if ra is not None and ra == rb:
        return True
    ia, ib = _identity(a), _identity(b)
    return ia is not None and ia == ib


def refuse_output_among_inputs(output: str | Path | None, inputs: Iterable[str | Path], *,
                               flag: str = "-o") -> None:
    """Raise UsageError (exit 2) when the output file is one of the inputs. stdout ('-') never is; stdin ('-',
    or no inputs at all) is when it is redirected from the output file."""
    if output is None or str(output) == _STDIN:
        return
    names = [str(p) for p in inputs] or [_STDIN]
    for name in names:
        if same_file(output, name):
            shown = "<stdin>" if name == _STDIN else name
            raise UsageError(f"{output}: {flag} names a file that is also an input ({shown}); writing it would "
                             "destroy the input: write the output elsewhere")


def refuse_inputs_inside_dir(out_dir: str | Path, inputs: Iterable[str | Path], *, flag: str = "-o") -> None:
    """Raise UsageError when an input lies inside the output folder (or is a link to a file in it): the run
    would overwrite or clear it."""
    root = _resolved(str(out_dir))
    if root is None:
        return
    names = [str(p) for p in inputs]
    inside: set[tuple[int, int]] | None = None
    for name in names:
        resolved = _resolved(name)
        hit = resolved is not None and (resolved == root or root in resolved.parents)
        if not hit and root.is_dir():
            ident = _identity(name)
            if ident is not None:
                if inside is None:
                    inside = _identities_under(root)
                hit = ident in inside
        if hit:
            shown = "<stdin>" if name == _STDIN else name
            raise UsageError(f"{out_dir}: {flag} names a folder holding an input ({shown}); writing the run "
                             "there would overwrite it: choose another folder")


def _identities_under(root: Path, limit: int = 10_000) -> set[tuple[int, int]]:
    """(device, inode) of the regular files under `root` (at most `limit` of them: a run folder is small)."""
    found: set[tuple[int, int]] = set()
    for folder, _, files in os.walk(root):
        for name in files:
            ident = _identity(os.path.join(folder, name))
            if ident is not None:
                found.add(ident)
            if len(found) >= limit:
                return found
    return found
