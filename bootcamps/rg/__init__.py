"""Bootcamps `rg/<dataset>`: every reasoning-gym dataset, seeded per row, scored by its own `score_answer`."""
from __future__ import annotations

from bc_common.bootcamp import missing_extra

__adapters__ = ("reasoning-gym",)  # its version is part of every rg/* row's stamp (bc_common.stamps)

bootcamp = missing_extra("reasoning-gym", ["reasoning_gym"],
                         description="Every reasoning-gym dataset as a bootcamp rg/<dataset> (100+ single-turn "
                                     "reasoning tasks, scored by reasoning-gym's own verifiers).")
if bootcamp is None:
    del bootcamp
    from .collection import collection  # noqa: F401  (the catalog's entry point)
