"""One module per puzzle, each defining a `Puzzle` subclass; PUZZLES maps its name to the class."""
from __future__ import annotations

from ..core import Puzzle
from . import (
    blocks_world,
    dial_lock,
    flood_it,
    hanoi,
    ice_slide,
    jump_line,
    knight_swap,
    lights_out,
    pancake,
    peg_solitaire,
    rotation,
    sliding_tile,
    switch_board,
    token_swap,
    water_jugs,
)

MODULES = (blocks_world, dial_lock, flood_it, hanoi, ice_slide, jump_line, knight_swap, lights_out, pancake,
           peg_solitaire, rotation, sliding_tile, switch_board, token_swap, water_jugs)
PUZZLES: dict[str, type[Puzzle]] = {m.PUZZLE.name: m.PUZZLE for m in MODULES}
