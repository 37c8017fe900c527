"""Version stamps: which code of a bootcamp made a task row or graded a trajectory.

    code_stamp("bootcamps.arithmetic.reward")
    # {"bootcamp_version": "bootcamp-harness 0.1.0", "code_hash": "3f2a9c01d4e5b6a7"}

`code_hash` is a hash of every file of the folder the module lives in (a bootcamp's folder: `bootcamps/<name>/`)
and of the version; `bootcamp_version` is the installed distribution that ships the folder, followed by the
packages its `__init__.py` names in `__adapters__` (`rg/*`: `reasoning-gym 0.1.25`), so upgrading an adapter
changes the stamp as editing the folder does.
"""
from __future__ import annotations

import functools
import hashlib
import importlib
import sys
from collections import Counter
from importlib import metadata
from pathlib import Path
from typing import Any

FIELDS = ("bootcamp_version", "code_hash")


@functools.cache
def code_stamp(module: str) -> dict[str, str]:
    """The stamp of the folder holding `module` (computed once per folder and process)."""
    mod = sys.modules.get(module) or importlib.import_module(module)
    path = Path(getattr(mod, "__file__", None) or "")
    if not path.name:  # a namespace package or a built-in: no folder to hash
        return {"bootcamp_version": _version(module), "code_hash": ""}
    if "." not in mod.__name__ and not hasattr(mod, "__path__"):  # a lone module (site-packages/x.py): itself only
        return _folder_stamp(path.parent, mod.__name__, path.name)
    return _folder_stamp(path.parent, _package_of(mod))


@functools.cache
def _folder_stamp(folder: Path, package: str, only: str = "") -> dict[str, str]:
    version = _version(package)
    digest = hashlib.blake2b(version.encode(), digest_size=8)
    files = [folder / only] if only else (p for p in folder.rglob("*") if p.is_file() and _counts(p, folder))
    for file in sorted(files):
        digest.update(b"\x00" + file.relative_to(folder).as_posix().encode() + b"\x00")
        digest.update(file.read_bytes())
    return {"bootcamp_version": version, "code_hash": digest.hexdigest()}


def _counts(path: Path, folder: Path) -> bool:
    """Source and data count; byte-code caches and editor droppings do not."""
    parts = path.relative_to(folder).parts
    return not any(p == "__pycache__" or p.startswith(".") for p in parts) and path.suffix not in (".pyc", ".pyo")


def _package_of(mod: Any) -> str:
    """The package whose folder holds `mod` (the module itself when it is a package)."""
    return mod.__name__ if hasattr(mod, "__path__") else mod.__name__.rpartition(".")[0] or mod.__name__


def _version(package: str) -> str:
    """`dist version` of what ships `package`, then `; adapter version` for each of its `__adapters__`."""
    parts = [_shipped_by(package.partition(".")[0])]
    mod = sys.modules.get(package)
    for adapter in getattr(mod, "__adapters__", ()) or ():
        parts.append(f"{adapter} {_dist_version(adapter)}")
    return "; ".join(parts)


@functools.cache
def _shipped_by(top: str) -> str:
    """`name version` of the distribution shipping the top-level package `top`: the one whose bootcamp entry point
    names it, or one named like it (metadata.packages_distributions() would scan every installed file: seconds)."""
    from .catalog import GROUP

    for ep in metadata.entry_points(group=GROUP):
        if ep.value.partition(":")[0].partition(".")[0] == top and getattr(ep, "dist", None) is not None:
            return f"{ep.dist.name} {ep.dist.version}"
    version = _dist_version(top)
    return f"{top} {version}"


def _dist_version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "not installed"


def stamp_of(row: dict[str, Any]) -> dict[str, str] | None:
    """The stamp a record carries (a trajectory's own, or a task row's `extra_info`); None when it has none."""
    holder = row if "code_hash" in row else (row.get("extra_info") or {})
    if not isinstance(holder, dict) or not isinstance(holder.get("code_hash"), str):
        return None
    return {name: str(holder.get(name) or "") for name in FIELDS}


def stamp_source(row: dict[str, Any]) -> str:
    """The bootcamp a trajectory's stamp is counted under: its task's data_source."""
    task = row.get("input") if isinstance(row.get("input"), dict) else {}
    return str(task.get("data_source") or row.get("data_source") or "?")


class StampMix:
    """Counts the stamps of a stream of trajectories per bootcamp, to flag a run that mixes code versions.

        mix = StampMix(); [mix.add(row) for row in rows]
        mix.lines()   # ["bootcamp/arithmetic: 2 code versions (76764b1cbfd2fb02: 3 rows, 0a1b...: 2 rows)"]
    """

    def __init__(self) -> None:
        self.seen: dict[str, Counter[str]] = {}

    def add(self, row: dict[str, Any]) -> None:
        stamp = stamp_of(row)
        if stamp is not None:
            self.count(stamp_source(row), stamp["code_hash"])

    def count(self, source: str, code_hash: str) -> None:
        """Count one row of `source` graded by `code_hash` (what `add` does with a row's stamp)."""
        self.seen.setdefault(source, Counter())[code_hash] += 1

    def lines(self) -> list[str]:
        """One line per bootcamp whose rows come from more than one code hash (none when the run is uniform)."""
        out = []
        for source, hashes in sorted(self.seen.items()):
            if len(hashes) > 1:
                shown = ", ".join(f"{h or '(none)'}: {n:,} rows" for h, n in hashes.most_common())
                out.append(f"{source}: {len(hashes)} code versions ({shown})")
        return out
