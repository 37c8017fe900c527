"""The `report` extra: what each output format needs, and the install hint when it is missing."""
from __future__ import annotations

from bc_common.errors import ConfigError
from bc_common.extras import install_hint, missing_modules

NEEDS = {"md": ["numpy"], "html": ["numpy", "vl_convert"]}


def require(fmt: str) -> None:
    """Raise ConfigError (exit 2) naming the missing modules and the install command."""
    missing = missing_modules(NEEDS[fmt])
    if missing:
        raise ConfigError(f"--format {fmt} needs {', '.join(missing)} (the report extra): {install_hint('report')}")
