"""Minesweeper boards that logic alone clears from the given start cell (no guess is ever needed).

A board is drawn with no mine on or next to the start cell (so the first reveal opens an area), then played by
the logic solver; it is kept only when the solver clears it within `max_rounds` rounds and `max_reveals` reveal
calls, and redrawn otherwise. Rounds (batches of reveals that each need the answers to the previous batch)
measure how deep the deduction goes.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bc_common.bootcamp import InstructionGenerator

from .board import Board, neighbours
from .solver import solve

MAX_DRAWS = 2000
# the turn budgets the bootcamp declares (its manifest's `limits`): every generated board is one the reference
# clears within them, one model turn per round of reveals plus a closing message
LIMITS = {"max_assistant_turns": 100, "max_user_turns": 400, "max_tool_calls_per_turn": 64, "max_tool_calls": 400}

PROMPT = """Let's play Minesweeper. The board has {rows} rows and {cols} columns and hides {mines} mines.

{board}

`#` is a hidden cell. Call `reveal(row, col)` to uncover a cell (rows and columns are numbered from 1): a \
number tells how many of its up to 8 neighbours are mines, and `.` means none (its neighbours open \
automatically). Revealing a mine ends the game. `flag(row, col)` marks a cell you believe is a mine (a note \
for yourself; it does not change what `reveal` does). You may make several calls in one turn.

Start with reveal({sr}, {sc}): the first reveal is always safe, and that cell opens an area. From there every \
cell can be worked out by logic; no guess is needed. You win when every cell without a mine is revealed. \
When the game is over, reply without a tool call."""


@dataclass
class MinesweeperConfig:
    rows: int = 9
    cols: int = 9
    mines: int = 10
    max_rounds: int = LIMITS["max_assistant_turns"] - 1  # rounds of reveals the logic player may need
    max_reveals: int = LIMITS["max_user_turns"]  # reveal calls it may make in all

    def validate(self) -> None:
        if not (3 <= self.rows <= 24 and 3 <= self.cols <= 30):
            raise ValueError("the board must have 3-24 rows and 3-30 columns")
        free = self.rows * self.cols - 9
        if not 1 <= self.mines <= free * 0.3:
            raise ValueError(f"mines must be between 1 and {int(free * 0.3)} for a {self.rows}x{self.cols} board "
                             "(denser boards almost never clear without guessing)")
        if not 1 <= self.max_rounds < LIMITS["max_assistant_turns"]:
            raise ValueError(f"max_rounds must be between 1 and {LIMITS['max_assistant_turns'] - 1} (the "
                             "bootcamp's model-turn budget, less the closing message)")
        if not 1 <= self.max_reveals <= LIMITS["max_user_turns"]:
            raise ValueError(f"max_reveals must be between 1 and {LIMITS['max_user_turns']} (the bootcamp's "
                             "tool-reply budget)")


class MinesweeperInstructionGenerator(InstructionGenerator):
    """Identity: {rows, cols, mines: [[row, col], ...], start: [row, col]}."""

    Config = MinesweeperConfig

    def case_generator(self) -> dict[str, Any]:
        rows, cols = self.rows, self.cols
        for _ in range(MAX_DRAWS):
            start = (self.rng.randint(1, rows), self.rng.randint(1, cols))
            keep_clear = {start, *neighbours(rows, cols, start)}
            cells = [(r, c) for r in range(1, rows + 1) for c in range(1, cols + 1) if (r, c) not in keep_clear]
            mines = sorted(self.rng.sample(cells, self.mines))
            identity = {"rows": rows, "cols": cols, "mines": [list(m) for m in mines], "start": list(start)}
            plan = solve(identity)
            if plan.cleared and len(plan.rounds) <= self.max_rounds and plan.reveals <= self.max_reveals:
                return identity
        raise ValueError(f"no {rows}x{cols} board with {self.mines} mines cleared by logic within "
                         f"max_rounds={self.max_rounds}, max_reveals={self.max_reveals} in {MAX_DRAWS} draws; "
                         "use fewer mines or raise the limits")

    def prompt_func(self, identity: dict[str, Any]) -> str:
        sr, sc = identity["start"]
        return PROMPT.format(rows=identity["rows"], cols=identity["cols"], mines=len(identity["mines"]),
                             board=Board.of(identity).render(), sr=sr, sc=sc)
