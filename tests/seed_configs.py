"""The seed-format YAML configs of built-in bootcamps, written once per test process (as `bc-gen --describe NAME
--format yaml -o DIR` writes them), for tests of the seed's --config / --tool-config / registry paths."""
from __future__ import annotations

import atexit
import functools
import shutil
import tempfile
from pathlib import Path

from bc_common.catalog import get_bootcamp
from bc_common.describe import write_seed_configs


@functools.cache
def seed_configs(name: str = "arithmetic") -> Path:
    """A folder holding `instruction_config.yaml`, `tool_config.yaml`, `interaction_config.yaml` of `name`."""
    folder = Path(tempfile.mkdtemp(prefix=f"bc-seed-{name}-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    write_seed_configs(get_bootcamp(name), folder)
    return folder
