"""Bootcamps `ta/<game>`: TextArena's games, seeded per row; single-player games answer each move, two-player
games put the model against a scripted seat, and `bc-eval --opponent-model` seats two models."""
from __future__ import annotations

from bc_common.bootcamp import missing_extra

__adapters__ = ("textarena",)  # its version is part of every ta/* row's stamp (bc_common.stamps)

bootcamp = missing_extra("textarena", ["textarena"],
                         description="TextArena's games as bootcamps ta/<game> (single-player puzzles and "
                                     "two-player games with seats for two models).")
if bootcamp is None:
    del bootcamp
    from .collection import collection  # noqa: F401  (the catalog's entry point)
