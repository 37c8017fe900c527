"""Binairo puzzles with exactly one solution: a random full grid, then cells removed while the solver still
finds a single completion (a minimal puzzle), then `extra_givens` of the removed cells put back (easier). A puzzle
that greedy filling in order solves (`bc_common.grids.greedy_solves`) is drawn again."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bc_common.bootcamp import InstructionGenerator
from bc_common.errors import ConfigError
from bc_common.grids import greedy_solves

from .rules import EMPTY, violations
from .solver import count_solutions, solutions

PROMPT = (
    "Solve this {n}x{n} binairo (takuzu) puzzle. Fill every empty cell (.) with 0 or 1 so that:\n"
    "1. every row and every column has as many 0s as 1s ({half} of each);\n"
    "2. no row or column has three equal cells side by side;\n"
    "3. no two rows are equal and no two columns are equal;\n"
    "4. the given cells keep their values.\n\n"
    "{grid}\n\n"
    "{tool_hint}End your reply with the completed grid inside answer tags, one row per line, for example:\n"
    "<answer>\n{example}\n</answer>"
)
MAX_DRAWS = 200  # draws before giving up; the easy group needs about 1.2 (greedy solves 12% of its puzzles)
TOOL_HINT = "A `check_grid` tool lists the rules a (partial) grid breaks, if you want to check your work.\n\n"


@dataclass
class BinairoConfig:
    size: int = 8
    extra_givens: float = 0.0  # fraction of the cells a minimal puzzle leaves empty that are given back
    tool_hint: bool = True

    def validate(self) -> None:
        if self.size not in (4, 6, 8, 10, 12, 14):
            raise ValueError("size must be one of 4, 6, 8, 10, 12, 14")
        if not 0.0 <= self.extra_givens <= 1.0:
            raise ValueError("extra_givens must be in [0, 1]")


def minimal_puzzle(solution: list[str], order: list[tuple[int, int]]) -> list[str]:
    """Empty the cells of `solution` in `order` whenever the puzzle stays uniquely solvable: a cell can go when
    the other value there leaves no solution (a cheap question: contradictions show up fast)."""
    grid = [list(row) for row in solution]
    for i, j in order:
        value = grid[i][j]
        grid[i][j] = "1" if value == "0" else "0"
        if count_solutions(["".join(r) for r in grid], limit=1) == 0:
            grid[i][j] = EMPTY
        else:
            grid[i][j] = value
    return ["".join(r) for r in grid]


class BinairoInstructionGenerator(InstructionGenerator):
    """Identity: `{"size": n, "givens": [rows of 0/1/.]}`; the solution is not stored (the verifier checks
    rules, and it is the only completion)."""

    Config = BinairoConfig
    name = "binairo"

    def case_generator(self) -> dict[str, Any]:
        for _ in range(MAX_DRAWS):
            givens = self._draw()
            if not greedy_solves(givens, "01", violations):
                return {"size": self.size, "givens": givens}
        raise ConfigError(f"every puzzle in {MAX_DRAWS} draws is solved by filling cells in order: lower "
                          "extra_givens")

    def _draw(self) -> list[str]:
        n = self.size
        solution = solutions([EMPTY * n] * n, 1, order=lambda c: self.rng.sample(c, len(c)))[0]
        cells = [(i, j) for i in range(n) for j in range(n)]
        self.rng.shuffle(cells)
        puzzle = [list(row) for row in minimal_puzzle(solution, cells)]
        empty = [(i, j) for i, j in cells if puzzle[i][j] == EMPTY]
        for i, j in empty[: round(len(empty) * self.extra_givens)]:
            puzzle[i][j] = solution[i][j]
        return ["".join(r) for r in puzzle]

    def prompt_func(self, identity: dict[str, Any]) -> str:
        n = identity["size"]
        example = "\n".join(("01" * n)[:n] if i % 2 == 0 else ("10" * n)[:n] for i in range(2)) + "\n..."
        return PROMPT.format(n=n, half=n // 2, grid="\n".join(" ".join(row) for row in identity["givens"]),
                             tool_hint=TOOL_HINT if self.tool_hint else "", example=example)
