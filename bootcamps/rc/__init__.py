"""Bootcamps `rc/<task>`: reasoning-core's task generators, seeded per row, scored by its own `score_answer`."""
from __future__ import annotations

from bc_common.bootcamp import missing_extra

__adapters__ = ("reasoning-core",)  # its version is part of every rc/* row's stamp (bc_common.stamps)

bootcamp = missing_extra("reasoning-core", ["reasoning_core"],
                         description="reasoning-core's task generators as bootcamps rc/<task> (50+ single-answer "
                                     "reasoning tasks: logic, formal languages, planning, maths, tables; scored by "
                                     "reasoning-core's own scorers).")
if bootcamp is None:
    del bootcamp
    from .collection import collection  # noqa: F401  (the catalog's entry point)
