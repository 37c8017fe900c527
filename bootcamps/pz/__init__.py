"""Bootcamps `pz/<puzzle>`: classic pencil logic puzzles (nonogram, skyscrapers, kenken, ...), each drawn with
exactly one solution (proved with a SAT solver) and graded by its rules in plain Python."""
from __future__ import annotations

from bc_common.bootcamp import missing_extra

bootcamp = missing_extra("puzzles", ["pycosat"],
                         description="Pencil logic puzzles as bootcamps pz/<puzzle> (nonogram, skyscrapers, kenken, "
                                     "...), unique solutions proved with PicoSAT.")
if bootcamp is None:
    del bootcamp
    from .collection import collection  # noqa: F401  (the catalog's entry point)
