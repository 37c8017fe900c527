"""Optional dependencies (the package's extras): which modules are missing, and the install command that works
where the harness runs.

    missing_modules(["pybamm"])   # ["pybamm"] when it cannot be imported (nothing is imported)
    install_hint("battery")       # "pip install 'bootcamp-harness[battery]'" from a wheel,
                                  # "pip install -e '.[battery]' (or: make setup-verl)" in a clone
"""
from __future__ import annotations

import importlib.util
import os
from pathlib import Path

DISTRIBUTION = "bootcamp-harness"


def missing_modules(modules: list[str]) -> list[str]:
    """The modules of `modules` that cannot be found, in order. Finds, never imports."""
    missing = []
    for module in modules:
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):  # a parent package that is missing or broken
            found = False
        if not found:
            missing.append(module)
    return missing


def source_checkout() -> Path | None:
    """The root of the clone this code runs from (its pyproject.toml names the distribution), else None."""
    root = Path(__file__).resolve().parents[2]
    try:
        text = (root / "pyproject.toml").read_text(encoding="utf-8")
    except OSError:
        return None
    return root if f'name = "{DISTRIBUTION}"' in text else None


def install_hint(extra: str, distribution: str = DISTRIBUTION) -> str:
    """The command that installs `extra` of `distribution` here: from PyPI for an installed wheel (or another
    package's extra), editable in a clone of the harness."""
    root = source_checkout() if distribution == DISTRIBUTION else None
    if root is None:
        return f"pip install '{distribution}[{extra}]'"
    if Path(os.getcwd()).resolve() == root:
        return f"pip install -e '.[{extra}]' (or: make setup-verl, every extra)"
    return f"pip install -e '{root}[{extra}]'"
