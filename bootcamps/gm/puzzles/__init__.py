"""One module per puzzle, each defining a `Puzzle` subclass; PUZZLES maps its name to the class."""
from __future__ import annotations

from ..core import Puzzle
from . import (
    dial_lock,
    flood_it,
    hanoi,
    ice_slide,
    knight_swap,
    lights_out,
    pancake,
    peg_solitaire,
    sliding_tile,
    token_swap,
    water_jugs,
)

MODULES = (dial_lock, flood_it, hanoi, ice_slide, knight_swap, lights_out, pancake, peg_solitaire, sliding_tile, token_swap, water_jugs,)
PUZZLES: dict[str, type[Puzzle]] = {m.PUZZLE.name: m.PUZZLE for m in MODULES}
