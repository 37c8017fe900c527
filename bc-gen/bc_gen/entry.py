"""bc-gen's command-line entry: rows must not follow Python's per-process string hash seed (some adapted
generators iterate sets of strings), so bc-gen runs under PYTHONHASHSEED=0, starting itself again under it when
launched otherwise, before anything is read or written (bc_common.hashseed)."""
from __future__ import annotations


def main() -> None:
    from bc_common.hashseed import reexec_under_fixed_hash_seed

    reexec_under_fixed_hash_seed()
    from .cli import main as cli

    cli()
