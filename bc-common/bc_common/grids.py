"""Grid puzzles (sudoku, binairo, ...) in the author API: what every grid bootcamp repeats, written once.

The answer grid in model text (`answer_grid`), the grid written as an answer (`grid_answer`), the `check` tool
that lists the rules a (partial) grid breaks (`GridCheckTool`), the verifier that accepts any grid breaking no rule
(`GridRewardCalculator`), the reference policy "solve, check with the tool when offered, answer" (`GridPolicy`),
and the baselines every grid puzzle has: the givens copied back, the empty cells filled greedily in order, random
cells (`CopyGivens`, `FillInOrder` / `fill_in_order` / `greedy_solves`, `RandomFill`). A bootcamp supplies its
rules as `violations(rows, givens) -> [sentences]`.

>>> answer_grid("my grid: <answer>\\n1 0\\n0 1\\n</answer>")
['10', '01']
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from .answer_blocks import grid_lines, last_tagged
from .bootcamp import ReferencePolicy, RewardCalculator, Tool, tool_call

EMPTY = "."
Violations = Callable[[list[str], list[str]], list[str]]


def answer_grid(text: str, max_length: int = 8192) -> list[str] | None:
    """The rows of the grid in the last `<answer>...</answer>` (separators and blank lines dropped), or None."""
    body = last_tagged(text, max_length=max_length)
    return (grid_lines(body) or None) if body is not None else None


def grid_answer(rows: list[str]) -> str:
    """`rows` as an answer block, one row per line."""
    return "<answer>\n" + "\n".join(rows) + "\n</answer>"


def check_report(broken: list[str], limit: int = 20) -> str:
    """What a check tool says: `Solved: ...`, or `Not solved:` and at most `limit` broken rules."""
    if not broken:
        return "Solved: the grid is complete and breaks no rule."
    shown = broken[:limit]
    more = f"\n... and {len(broken) - len(shown)} more" if len(broken) > len(shown) else ""
    return "Not solved:\n" + "\n".join(f"- {b}" for b in shown) + more


def check_tool_schema(name: str, puzzle: str, cells: str, example: str, max_rows: int,
                      max_length: int) -> dict[str, Any]:
    """The OpenAI schema of a grid puzzle's check tool (`rows`: one string per row, `.` for empty)."""
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": f"Check a {puzzle} grid against the rules and the givens of this puzzle. Rows are "
                           f"strings of {cells} and . (empty); empty cells are allowed. Lists every broken rule.",
            "parameters": {
                "type": "object",
                "properties": {
                    "rows": {"type": "array", "maxItems": max_rows, "items": {"type": "string", "maxLength": max_length},
                             "description": f"the grid, one string per row, e.g. {example}"},
                },
                "required": ["rows"],
                "additionalProperties": False,
            },
        },
    }


class GridCheckTool(Tool):
    """Reports every rule the grid breaks against this task's givens, or that it is solved. Step reward 0; the
    tool holds only the givens, which the prompt shows anyway. Subclasses set `tool_schema` and `violations`."""

    violations: ClassVar[Violations]

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[str, float, dict]:
        state = self.state(instance_id)
        state["calls"] += 1
        broken = type(self).violations(grid_lines("\n".join(parameters["rows"])), state["identity"]["givens"])
        metrics = {"calls": state["calls"]}
        if broken:
            metrics["violations"] = len(broken)
        return check_report(broken), 0.0, metrics


class GridRewardCalculator(RewardCalculator):
    """1.0 for a complete grid that breaks no rule and keeps every given, else 0 (only the last answer counts;
    nothing is compared with a stored solution). Subclasses set `violations` and `max_answer`."""

    violations: ClassVar[Violations]
    max_answer: ClassVar[int] = 8192

    @classmethod
    def extract_output(cls, output_str: str) -> list[str] | None:
        return answer_grid(output_str, cls.max_answer)

    @classmethod
    def _verify_correction(cls, extracted: list[str], identity: dict[str, Any], **kwargs: Any) -> bool:
        return not cls.violations(extracted, identity["givens"])


class GridPolicy(ReferencePolicy):
    """Solves the grid, checks it with the `check_tool` when offered, then answers; `wrong=True` answers
    `corrupt(solution)`. Subclasses give `solve()` (None when there is no solution) and `corrupt(rows)`."""

    check_tool: ClassVar[str] = "check"

    def solve(self) -> list[str] | None:
        raise NotImplementedError

    def corrupt(self, rows: list[str]) -> list[str]:
        raise NotImplementedError

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        rows = self.solve()
        if rows is None:  # generation proves a unique solution; a hand-made identity may have none
            return {"role": "assistant", "content": "This puzzle has no solution."}
        checked = next((m.get("content") for m in reversed(messages) if m.get("role") == "tool"), None)
        if self.check_tool in self.tools and checked is None:
            return {"role": "assistant", "content": "Let me check my grid.",
                    "tool_calls": [tool_call("call_0", self.check_tool, {"rows": rows})]}
        return {"role": "assistant", "content": grid_answer(self.corrupt(rows) if wrong else rows)}


class CopyGivens(ReferencePolicy):
    """Baseline: answers the puzzle as given, empty cells and all."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        return {"role": "assistant", "content": grid_answer(list(self.identity["givens"]))}


def fill_in_order(givens: list[str], symbols: str, violations: Violations, *,
                  by_columns: bool = False) -> list[str]:
    """The grid a greedy player writes: empty cells in reading order (down the columns with `by_columns`), each
    with the first of `symbols` that breaks no rule yet (the first symbol when every one does); no look-ahead,
    no backtracking. A generator can refuse puzzles this solves."""
    rows = [list(r) for r in givens]
    cells = [(i, j) for i in range(len(rows)) for j in range(len(rows[i]))]
    if by_columns:
        cells.sort(key=lambda cell: (cell[1], cell[0]))
    for i, j in cells:
        if rows[i][j] != EMPTY:
            continue
        for symbol in symbols:
            rows[i][j] = symbol
            grid = ["".join(r) for r in rows]
            if not [v for v in violations(grid, givens) if not v.startswith("incomplete")]:
                break
        else:
            rows[i][j] = symbols[0]
    return ["".join(r) for r in rows]


def greedy_solves(givens: list[str], symbols: str, violations: Violations) -> bool:
    """Whether `fill_in_order` solves the puzzle, with the symbols tried in either order, by rows or by columns."""
    return any(not violations(fill_in_order(givens, order, violations, by_columns=by_columns), givens)
               for order in (symbols, symbols[::-1]) for by_columns in (False, True))


class FillInOrder(ReferencePolicy):
    """Baseline: `fill_in_order` with the bootcamp's `symbols` and `violations`."""

    symbols: ClassVar[str]
    violations: ClassVar[Violations]

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        rows = fill_in_order(list(self.identity["givens"]), self.symbols, type(self).violations)
        return {"role": "assistant", "content": grid_answer(rows)}


class RandomFill(ReferencePolicy):
    """Baseline: fills every empty cell with a random symbol of `symbols`."""

    symbols: ClassVar[str]

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        rows = ["".join(self.rng.choice(self.symbols) if c == EMPTY else c for c in row)
                for row in self.identity["givens"]]
        return {"role": "assistant", "content": grid_answer(rows)}
