"""Bootcamps `os/<game>`: OpenSpiel's two-player board games as endgame tactics; from a drawn position the model
forces a win in a few moves against a perfect scripted defender."""
from __future__ import annotations

from bc_common.bootcamp import missing_extra

__adapters__ = ("open-spiel",)  # its version is part of every os/* row's stamp (bc_common.stamps)

bootcamp = missing_extra("openspiel", ["pyspiel"],
                         description="OpenSpiel's board games as bootcamps os/<game> (force a win in a few moves "
                                     "against a perfect defender).")
if bootcamp is None:
    del bootcamp
    from .collection import collection  # noqa: F401  (the catalog's entry point)
