"""Package discovery for the monorepo (pyproject.toml holds everything else).

Every folder under `bootcamps/` (and under each tool) whose name Python could import ships as a package — a
folder of data files only, like `bc_report/assets`, as a namespace package, declared so setuptools has nothing to
warn about — and every other file inside it (README, configs, assets, data) ships as its package data: a new
bootcamp is a new folder, nothing else.
"""
from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).parent
TOOLS = {"bc_common": "bc-common/bc_common", "bc_gen": "bc-gen/bc_gen", "bc_eval": "bc-eval/bc_eval",
         "bc_filter": "bc-filter/bc_filter", "bc_train": "bc-train/bc_train",
         "bc_toolserve": "bc-toolserve/bc_toolserve", "bc_report": "bc-report/bc_report"}
SKIP_DIRS = {"__pycache__", ".pytest_cache", ".ruff_cache"}
SKIP_SUFFIXES = {".py", ".pyc", ".pyo"}


def is_package(folder: Path) -> bool:
    """A folder Python can import (with or without an __init__.py): setuptools wants each one declared."""
    return folder.is_dir() and folder.name.isidentifier() and folder.name not in SKIP_DIRS


def packages_under(package: str, folder: Path) -> dict[str, str]:
    """`package` and its sub-packages (importable folders, data-only ones included), mapped to their folders."""
    found = {package: folder.relative_to(ROOT).as_posix()}
    for sub in sorted(folder.iterdir()):
        if is_package(sub):
            found.update(packages_under(f"{package}.{sub.name}", sub))
    return found


def data_files_of(folder: Path) -> list[str]:
    """Every non-code file below `folder` that does not belong to a sub-package, relative to `folder`."""
    out = []
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if not path.is_file() or path.suffix in SKIP_SUFFIXES or SKIP_DIRS & set(rel.parts):
            continue
        if any(is_package(folder.joinpath(*rel.parts[:i])) for i in range(1, len(rel.parts))):
            continue  # shipped with that sub-package
        out.append(rel.as_posix())
    return out


package_dir: dict[str, str] = {}
for name, folder in TOOLS.items():
    if (ROOT / folder).is_dir():
        package_dir.update(packages_under(name, ROOT / folder))
package_dir.update(packages_under("bootcamps", ROOT / "bootcamps"))
# verifiers resolves an environment's id to a top-level package: `bc-verifiers` (bc_common.interop.vf_env's entry)
package_dir.update(packages_under("bc_verifiers", ROOT / "bc-common" / "bc_verifiers"))
package_data = {name: files for name, folder in package_dir.items() if (files := data_files_of(ROOT / folder))}

setup(packages=sorted(package_dir), package_dir=package_dir, package_data=package_data)
