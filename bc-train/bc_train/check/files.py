"""Step files: every data and config file the composed config reads exists; sample rows of a data file."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from .failure import CheckFailed

SAMPLE_ROWS = 4


def read_rows(path: Path, n: int = SAMPLE_ROWS) -> list[dict[str, Any]]:
    import pyarrow.parquet as pq

    return pq.read_table(path).slice(0, n).to_pylist()


def check_files(cfg: Any, run_dir: Path, mode: str) -> str:
    """Every file the composed config reads exists (a missing one is named here, not as a crash later on)."""
    from omegaconf import OmegaConf

    keys = ["data.train_files", "data.val_files"]
    if mode == "rl":
        keys += ["actor_rollout_ref.rollout.multi_turn.tool_config_path",
                 "actor_rollout_ref.rollout.agent.agent_loop_config_path"]
    outside = []
    count = 0
    for key in keys:
        value = OmegaConf.select(cfg, key)
        paths = list(value) if OmegaConf.is_list(value) else [value]
        for path in paths:
            if path is None or (key == "data.val_files" and path == ""):
                continue
            count += 1
            file = Path(str(path))
            if not file.is_file():
                raise CheckFailed("files", f"{key} = {path}: no such file")
            if not file.resolve().is_relative_to(run_dir.resolve()):
                outside.append(str(path))
    note = f"; reads {len(outside)} file(s) outside {run_dir} (copied or moved? first: {outside[0]})" if outside else ""
    return f"{count} data and config file(s) present{note}"
