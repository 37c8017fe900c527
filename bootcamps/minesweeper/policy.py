"""The reference policy: plays through the tools, deducing safe cells with the logic solver from the boards the
`reveal` tool returned, and reveals every proven-safe cell in one turn."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import ReferencePolicy, tool_call

from .board import parse_board
from .solver import deduce

WON, LOST = "you win!", "Game over: you lose."


class MinesweeperPolicy(ReferencePolicy):
    """Never guesses (the generator proves it never has to). `wrong=True` claims a win without revealing on the
    first turn, and reveals a mine later."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        ident = self.identity
        tool_texts = [str(m.get("content") or "") for m in messages if m.get("role") == "tool"]
        if any(WON in t for t in tool_texts):
            return {"role": "assistant", "content": "Every safe cell is revealed: the board is cleared."}
        if any(LOST in t for t in tool_texts):
            return {"role": "assistant", "content": "I revealed a mine; the game is over."}
        turn = sum(m.get("role") == "assistant" for m in messages)
        seen = next((b for b in map(parse_board, reversed(tool_texts)) if b is not None), None)
        if seen is None:
            if wrong:
                return {"role": "assistant", "content": "I cleared the board: every safe cell is revealed."}
            return self._reveal(turn, [tuple(ident["start"])])
        rows, cols, numbers = seen
        if wrong:
            mine = next(tuple(m) for m in ident["mines"] if tuple(m) not in numbers)
            return self._reveal(turn, [mine])
        proof = deduce(rows, cols, numbers, len(ident["mines"]))
        safe = sorted(proof.safe - numbers.keys())
        if not safe:  # cannot happen on a generated board; reveal a hidden cell not proven a mine
            hidden = [(r, c) for r in range(1, rows + 1) for c in range(1, cols + 1)
                      if (r, c) not in numbers and (r, c) not in proof.mines]
            safe = hidden[:1]
        return self._reveal(turn, safe)

    def _reveal(self, turn: int, cells: list[tuple[int, int]]) -> dict[str, Any]:
        calls = [tool_call(f"call_{turn}_{k}", "reveal", {"row": r, "col": c}) for k, (r, c) in enumerate(cells)]
        listed = ", ".join(f"({r}, {c})" for r, c in cells)
        return {"role": "assistant", "content": f"Revealing {listed}.", "tool_calls": calls}
