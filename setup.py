"""Package discovery for the monorepo (pyproject.toml holds everything else).

Every folder under `bootcamps/` with an `__init__.py` ships as a package, and every other file inside a bootcamp
folder (README, configs, assets, data) ships as its package data: a new bootcamp is a new folder, nothing else.
"""
from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).parent
TOOLS = {"bc_common": "bc-common/bc_common", "bc_gen": "bc-gen/bc_gen", "bc_eval": "bc-eval/bc_eval",
         "bc_filter": "bc-filter/bc_filter", "bc_train": "bc-train/bc_train",
         "bc_toolserve": "bc-toolserve/bc_toolserve", "bc_report": "bc-report/bc_report"}
SKIP_DIRS = {"__pycache__", ".pytest_cache", ".ruff_cache"}
SKIP_SUFFIXES = {".py", ".pyc", ".pyo"}


def packages_under(package: str, folder: Path) -> dict[str, str]:
    """`package` and its sub-packages (folders with an __init__.py), mapped to their folders."""
    found = {package: folder.relative_to(ROOT).as_posix()}
    for sub in sorted(folder.iterdir()):
        if sub.is_dir() and sub.name not in SKIP_DIRS and (sub / "__init__.py").is_file():
            found.update(packages_under(f"{package}.{sub.name}", sub))
    return found


def data_files_of(folder: Path) -> list[str]:
    """Every non-code file below `folder` that does not belong to a sub-package, relative to `folder`."""
    out = []
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder)
        if not path.is_file() or path.suffix in SKIP_SUFFIXES or SKIP_DIRS & set(rel.parts):
            continue
        if any((folder.joinpath(*rel.parts[:i]) / "__init__.py").is_file() for i in range(1, len(rel.parts))):
            continue  # shipped with that sub-package
        out.append(rel.as_posix())
    return out


package_dir: dict[str, str] = {}
for name, folder in TOOLS.items():
    if (ROOT / folder).is_dir():
        package_dir.update(packages_under(name, ROOT / folder))
package_dir.update(packages_under("bootcamps", ROOT / "bootcamps"))
package_data = {name: files for name, folder in package_dir.items() if (files := data_files_of(ROOT / folder))}

setup(packages=sorted(package_dir), package_dir=package_dir, package_data=package_data)
