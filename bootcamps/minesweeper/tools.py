"""The `reveal` and `flag` tools. The hidden board lives in the reveal tool's state; the model sees only the
rendered board that each call returns."""
from __future__ import annotations

from typing import Any, ClassVar

from bc_common.bootcamp import Tool
from bc_common.errors import ToolError

from .board import Board, MoveError

_CELL = {
    "type": "object",
    "properties": {"row": {"type": "integer", "description": "Row number, from 1 at the top."},
                   "col": {"type": "integer", "description": "Column number, from 1 at the left."}},
    "required": ["row", "col"],
    "additionalProperties": False,
}


def cell_of(parameters: dict[str, Any]) -> tuple[int, int]:
    """(row, col) as ints: JSON Schema's "integer" also admits 2.0."""
    return int(parameters["row"]), int(parameters["col"])


def _board(identity: Any) -> Board:
    try:
        return Board.of(identity)
    except (KeyError, TypeError, ValueError):
        raise ToolError("bad_identity", "this tool was created without the task's board") from None


class RevealTool(Tool):
    """Uncovers a cell of the hidden board. Step reward 0: the final board, replayed by the verifier, decides."""

    tool_schema: ClassVar[dict[str, Any]] = {
        "type": "function",
        "function": {"name": "reveal", "parameters": _CELL,
                     "description": "Uncover the cell at (row, col). Returns the board after the move; revealing "
                                    "a mine ends the game."}}

    def setup_state(self, identity: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return {"board": _board(identity), "calls": 0}

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[str, float, dict]:
        state = self.state(instance_id)
        state["calls"] += 1
        board: Board = state["board"]
        r, c = cell_of(parameters)
        try:
            outcome = board.reveal(r, c)
        except MoveError as exc:
            if exc.kind != "game_over":
                raise ToolError(exc.kind, exc.message) from None
            outcome = "over"  # not an error: a batch of reveals may run past the winning one
        if outcome == "over":
            said = f"The game is already over (you {board.result}); nothing changes."
        elif outcome == "mine":
            said = f"({r}, {c}) was a mine. Game over: you lose."
        elif outcome == "already":
            said = f"({r}, {c}) was already revealed."
        elif board.result == "won":
            said = f"Revealed ({r}, {c}). Every safe cell is revealed: you win!"
        else:
            hidden = board.rows * board.cols - len(board.revealed)
            said = f"Revealed ({r}, {c}). {hidden} hidden cells, {len(board.mines)} of them mines."
        return f"{said}\n\n{board.render()}", 0.0, {"calls": state["calls"], "result": board.result}


class FlagTool(Tool):
    """Marks or unmarks a cell as a suspected mine. Flags are the player's notes: each tool keeps its own state
    per trajectory, so flags do not change what `reveal` does and the verifier ignores them."""

    tool_schema: ClassVar[dict[str, Any]] = {
        "type": "function",
        "function": {"name": "flag", "parameters": _CELL,
                     "description": "Put a flag on (row, col) as a suspected mine, or take it off if already "
                                    "flagged. Returns the flagged cells."}}

    def setup_state(self, identity: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        board = _board(identity)
        return {"rows": board.rows, "cols": board.cols, "mines": len(board.mines), "flags": set(), "calls": 0}

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[str, float, dict]:
        state = self.state(instance_id)
        state["calls"] += 1
        r, c = cell_of(parameters)
        if not (1 <= r <= state["rows"] and 1 <= c <= state["cols"]):
            raise ToolError("out_of_bounds", f"({r}, {c}) is off the board: rows 1-{state['rows']}, "
                                             f"columns 1-{state['cols']}")
        flags: set = state["flags"]
        if (r, c) in flags:
            flags.discard((r, c))
            said = f"Flag removed from ({r}, {c})."
        else:
            flags.add((r, c))
            said = f"Flag placed on ({r}, {c})."
        listed = ", ".join(f"({a}, {b})" for a, b in sorted(flags)) or "none"
        return (f"{said} Flags ({len(flags)} of {state['mines']} mines): {listed}.", 0.0,
                {"calls": state["calls"], "flags": len(flags)})
