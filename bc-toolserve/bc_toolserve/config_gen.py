"""Turn a local tool config into one whose tools call the server (`bc_common.remote_tool.RemoteTool`)."""
from __future__ import annotations

from pathlib import Path

import yaml

from bc_common.tool_config import ToolSpec

REMOTE_CLASS = "bc_common.remote_tool.RemoteTool"


def remote_config(specs: list[ToolSpec], master_url: str, timeout_per_query: float = 60) -> dict:
    """The seed-format tool config for `specs`, each served by the master at `master_url` (same schemas)."""
    timeout = int(timeout_per_query) if float(timeout_per_query).is_integer() else float(timeout_per_query)
    return {"tools": [{"class_name": REMOTE_CLASS,
                       "config": {"type": "native", "server_url": master_url.rstrip("/"),
                                  "timeout_per_query": timeout},
                       "tool_schema": spec.tool_schema} for spec in specs]}


def remote_config_yaml(specs: list[ToolSpec], master_url: str, timeout_per_query: float = 60) -> str:
    return yaml.safe_dump(remote_config(specs, master_url, timeout_per_query), sort_keys=False, allow_unicode=True)


REMOTE_CONFIG = "remote_tool_config.yaml"


def check_remote_config_target(output_dir: str | Path | None, tools: str | None = None, registry: str | None = None,
                               log_dir: str | None = None) -> None:
    """Refuse (UsageError, exit 2) an `output_dir` whose remote config would overwrite an input config, or a
    --log-dir that is one of the files read or written."""
    from bc_common.paths import refuse_collisions

    refuse_collisions(reads=[("--tools", tools), ("--registry", registry)],
                      writes=[("--output-dir", Path(output_dir) / REMOTE_CONFIG if output_dir else None),
                              ("--log-dir", log_dir)])


def write_remote_config(specs: list[ToolSpec], master_url: str, output_dir: str | Path,
                        timeout_per_query: float = 60) -> Path:
    """Write `remote_tool_config.yaml` into `output_dir` (created if needed); returns its path."""
    out = Path(output_dir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / REMOTE_CONFIG
    path.write_text(remote_config_yaml(specs, master_url, timeout_per_query), encoding="utf-8")
    return path
