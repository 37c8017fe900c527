"""Emit an SFT run directory from bc-filter `--to sft` rows or raw trajectory rows (checked and split by
`bc_train.emit.emit_run`, read again here to write them).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from bc_common.errors import InputError
from bc_common.images import dataset_folder
from bc_common.jsonl import Record

from . import verl_config as vc
from .inputs import RunInputs
from .parquet_rows import sft_row
from .rl import _finish, selected_rows, write_parts
from .run_dir import clear_previous_run
from .split import Split


def _row(rec: Record, i: int) -> dict[str, Any]:
    if not isinstance(rec.data, dict) or not isinstance(rec.data.get("messages"), list):
        raise InputError("missing field 'messages' (expected a bc-filter --to sft or trajectory row)",
                         source=rec.source, line=rec.line, field="messages")
    try:
        return sft_row(rec.data, base=dataset_folder(rec.source))
    except InputError as exc:
        raise InputError(exc.reason, source=rec.source, line=rec.line, field=exc.field) from None
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise InputError(f"cannot convert SFT row: {exc}", source=rec.source, line=rec.line) from None


def emit_sft(inputs: RunInputs, split: Split, out_dir: Path, opts: vc.TrainOptions,
             force: bool = False) -> dict[str, Any]:
    """Write the SFT run directory from the rows `inputs` holds (checked and split by emit.py's first pass);
    returns the manifest (also written as bc_train.json)."""
    sources: set[str] = set()

    def convert(rec: Record, i: int) -> dict[str, Any]:
        row = _row(rec, i)
        if row["data_source"]:
            sources.add(row["data_source"])
        return row

    counts = write_parts(lambda: selected_rows(inputs, split, False), convert, out_dir, "SFT",
                         lambda: clear_previous_run(out_dir) if force else None)
    config = vc.sft_config(opts, has_val=bool(counts["val"]))
    vc.write_yaml(out_dir / "config.yaml", config, vc.CONFIG_HEADER.format(what="SFT"))
    return _finish(out_dir, "sft", opts, counts, sorted(sources), config,
                   ["train.parquet", *(["val.parquet"] if counts["val"] else []), "config.yaml"])
