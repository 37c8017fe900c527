"""The `report` extra: what each output format needs, and the install hint when it is missing."""
from __future__ import annotations

import importlib.util

from bc_common.errors import ConfigError

NEEDS = {"md": ["numpy"], "html": ["numpy", "altair", "vl_convert"]}
HINT = "pip install 'bootcamp-harness[report]'"


def require(fmt: str) -> None:
    """Raise ConfigError (exit 2) naming the missing modules and the install command."""
    missing = []
    for module in NEEDS[fmt]:
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            missing.append(module)
    if missing:
        raise ConfigError(f"--format {fmt} needs {', '.join(missing)} (the report extra): {HINT}")
