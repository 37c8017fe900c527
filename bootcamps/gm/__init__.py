"""Bootcamps `gm/<puzzle>`: interactive puzzles solved over several turns through a move tool (sliding tiles, four-peg
Hanoi, lights out, pancakes, peg solitaire, coupled dials, flood-it, rotation grids, water jugs, ice sliding, knight
and token swaps, blocks world, pegs on a line, switches and bulbs); each
reply shows the new state, and the moves, replayed by the verifier, score 1.0 when they solve the puzzle within
the exact optimum plus a small slack."""
from __future__ import annotations

from .collection import collection  # noqa: F401  (the catalog's entry point)
