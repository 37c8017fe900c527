"""Every puzzle type of the collection, by name."""
from __future__ import annotations

from ..puzzle import Puzzle
from .akari import Akari
from .aquarium import Aquarium
from .futoshiki import Futoshiki
from .hitori import Hitori
from .kakurasu import Kakurasu
from .kenken import Kenken
from .killer_sudoku import KillerSudoku
from .mosaic import Mosaic
from .nonogram import Nonogram
from .skyscrapers import Skyscrapers
from .tents import Tents
from .thermometers import Thermometers

PUZZLES: dict[str, Puzzle] = {p.name: p for p in (
    Akari(), Aquarium(), Futoshiki(), Hitori(), Kakurasu(), Kenken(), KillerSudoku(), Mosaic(), Nonogram(),
    Skyscrapers(), Tents(), Thermometers())}
