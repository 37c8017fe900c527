"""Sudoku puzzles with exactly one solution, graded by the techniques they need (`logic.grade`).

A random full grid, then cells emptied in random order while the puzzle stays solvable at the group's level
(levels 1 and 2: by those techniques, which also makes the solution unique; level 3: by the counting
solver's uniqueness test), stopping at `min_givens`. The result is kept only when its grade is the level
asked for, and its uniqueness is proved once more by the counting solver before it is emitted.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bc_common.bootcamp import InstructionGenerator
from bc_common.errors import ConfigError

from .grid import to_rows
from .logic import grade, solves
from .solver import count_solutions, solutions

MAX_ATTEMPTS = 200  # measured over 30 puzzles: 3.7 attempts on average at level 2, 2.7 at level 3, 1 at level 1

PROMPT = (
    "Solve this sudoku. Fill every empty cell (.) with a digit 1-9 so that every row, every column and every "
    "3x3 box contains each digit exactly once; the given digits stay as they are.\n\n{grid}\n\n{tool_hint}"
    "End your reply with the completed grid inside answer tags, nine digits per line, for example:\n"
    "<answer>\n123456789\n456789123\n...\n</answer>"
)
TOOL_HINT = "A `check` tool lists the rules a (partial) grid breaks, if you want to check your work.\n\n"


@dataclass
class SudokuConfig:
    level: int = 2  # 1: singles suffice; 2: needs locked candidates or subsets; 3: needs more than those
    min_givens: int = 17  # stop emptying cells at this many givens (17 is the fewest any sudoku can have)
    tool_hint: bool = True

    def validate(self) -> None:
        if self.level not in (1, 2, 3):
            raise ValueError("level must be 1, 2 or 3")
        if not 17 <= self.min_givens <= 80:
            raise ValueError("need 17 <= min_givens <= 80")


def show(rows: list[str]) -> str:
    """The grid with spaces and box rules, as people print it."""
    lines = []
    for r, row in enumerate(rows):
        if r in (3, 6):
            lines.append("------+-------+------")
        lines.append(" | ".join(" ".join(row[c:c + 3]) for c in (0, 3, 6)))
    return "\n".join(lines)


class SudokuInstructionGenerator(InstructionGenerator):
    """Identity: `{"givens": [9 rows of 1-9 and .], "level": 1|2|3}`; the solution is not stored (the verifier
    checks rules, and it is the only completion)."""

    Config = SudokuConfig
    name = "sudoku"

    def _keeps(self, cells: list[int], cell: int, digit: int) -> bool:
        """Whether the puzzle with `cell` emptied (it held `digit`) stays solvable at the level asked for."""
        if self.level < 3:
            return solves(cells, self.level)
        # still unique exactly when no completion puts another digit there (contradictions show up fast)
        return not solutions(cells, 1, forbid=(cell, digit))

    def case_generator(self) -> dict[str, Any]:
        for _ in range(MAX_ATTEMPTS):
            solution = solutions([0] * 81, 1, order=lambda d: self.rng.sample(d, len(d)))[0]
            cells = list(solution)
            order = list(range(81))
            self.rng.shuffle(order)
            givens = 81
            for i in order:
                if givens <= self.min_givens:
                    break
                value, cells[i] = cells[i], 0
                if self._keeps(cells, i, value):
                    givens -= 1
                else:
                    cells[i] = value
            if grade(cells) == self.level and count_solutions(cells, 2) == 1:
                return {"givens": to_rows(cells), "level": self.level}
        raise ConfigError(f"no level-{self.level} puzzle in {MAX_ATTEMPTS} attempts: lower min_givens")

    def prompt_func(self, identity: dict[str, Any]) -> str:
        return PROMPT.format(grid=show(identity["givens"]), tool_hint=TOOL_HINT if self.tool_hint else "")
