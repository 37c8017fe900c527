"""The seed's positional output: `data_postprocess.py IN OUT` wrote OUT, where `bc-filter IN OUT` reads two inputs.

Two FILES and no -o take the seed's meaning when the second cannot be an input (it does not exist) or carries
the seed's default output name (`*_processed.jsonl`); otherwise the call is ambiguous and refused with the hint.

    files, output = seed_output(["eval.jsonl", "out.jsonl"], "-", output_given=False)  # (["eval.jsonl"], "out.jsonl")
"""
from __future__ import annotations

import os
from pathlib import Path

from bc_common.errors import UsageError

SEED_SUFFIX = "_processed"


def seed_output(files: list[str], output: str, *, output_given: bool) -> tuple[list[str], str]:
    """(inputs, output) for the command line's FILES and -o; UsageError when `IN OUT` could mean either."""
    if output_given or len(files) != 2 or "-" in files:
        return files, output
    source, second = files
    if not os.path.exists(second) or Path(second).stem.endswith(SEED_SUFFIX):
        return [source], second
    raise UsageError(f"{second}: two FILES and no -o: is it a second input, or the output (the seed's `IN OUT` "
                     f"form)? Write `-o {second}` to write it, or add `-o -` to read both files")
