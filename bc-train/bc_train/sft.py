"""Emit an SFT run directory from bc-filter `--to sft` rows or raw trajectory rows.

    emit_sft(records, Path("runs/sft1"), TrainOptions())
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from bc_common.errors import InputError
from bc_common.images import dataset_folder
from bc_common.jsonl import Record

from . import verl_config as vc
from .parquet_rows import check_fixed_shapes, sft_row, with_images_column, write_rows
from .rl import _finish, split_holdout
from .run_dir import clear_previous_run


def _rows(records: list[Record]) -> list[dict[str, Any]]:
    out = []
    for rec in records:
        if not isinstance(rec.data, dict) or not isinstance(rec.data.get("messages"), list):
            raise InputError("missing field 'messages' (expected a bc-filter --to sft or trajectory row)",
                             source=rec.source, line=rec.line, field="messages")
        try:
            out.append(sft_row(rec.data, base=dataset_folder(rec.source)))
        except InputError as exc:
            raise InputError(exc.reason, source=rec.source, line=rec.line, field=exc.field) from None
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise InputError(f"cannot convert SFT row: {exc}", source=rec.source, line=rec.line) from None
    return out


def emit_sft(records: list[Record], out_dir: Path, opts: vc.TrainOptions,
             val_records: list[Record] | None = None, force: bool = False) -> dict[str, Any]:
    """Write the SFT run directory; returns the manifest (also written as bc_train.json)."""
    if not records:
        raise InputError("no SFT rows to train on")
    if val_records is None and len(records) >= 20:
        records, val_records = split_holdout(records, lambda r: str(r.data.get("id") or r.line))
    train, val = _rows(records), _rows(val_records or [])
    with_images_column(train + val)
    check_fixed_shapes(train + val, "SFT")
    if force:
        clear_previous_run(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    write_rows(train, out_dir / "train.parquet")
    if val:
        write_rows(val, out_dir / "val.parquet")
    config = vc.sft_config(opts, has_val=bool(val))
    vc.write_yaml(out_dir / "config.yaml", config, vc.CONFIG_HEADER.format(what="SFT"))
    sources = sorted({r["data_source"] for r in train + val if r["data_source"]})
    return _finish(out_dir, "sft", opts, {"train": len(train), "val": len(val)}, sources, config,
                   ["train.parquet", *(["val.parquet"] if val else []), "config.yaml"])
