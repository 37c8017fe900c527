"""Baselines: the cheap ways to play a lazy policy finds first. Each sees only the boards the tool returned."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import Baseline, ReferencePolicy, tool_call

from .board import parse_board
from .policy import LOST, WON


class _OneCellATurn(ReferencePolicy):
    """Reveals the announced start cell, then one cell a turn chosen by `pick` from the hidden ones, until the game
    is over."""

    def pick(self, hidden: list[tuple[int, int]]) -> tuple[int, int]:
        raise NotImplementedError

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        tool_texts = [str(m.get("content") or "") for m in messages if m.get("role") == "tool"]
        if any(WON in t or LOST in t for t in tool_texts):
            return {"role": "assistant", "content": "The game is over."}
        turn = sum(m.get("role") == "assistant" for m in messages)
        seen = next((b for b in map(parse_board, reversed(tool_texts)) if b is not None), None)
        if seen is None:
            cell = tuple(self.identity["start"])
        else:
            rows, cols, numbers = seen
            hidden = [(r, c) for r in range(1, rows + 1) for c in range(1, cols + 1) if (r, c) not in numbers]
            cell = self.pick(hidden)
        return {"role": "assistant", "content": f"Revealing {cell}.",
                "tool_calls": [tool_call(f"call_{turn}", "reveal", {"row": cell[0], "col": cell[1]})]}


class RandomClicks(_OneCellATurn):
    def pick(self, hidden: list[tuple[int, int]]) -> tuple[int, int]:
        return self.rng.choice(hidden)


class ReadingOrder(_OneCellATurn):
    def pick(self, hidden: list[tuple[int, int]]) -> tuple[int, int]:
        return hidden[0]


class CornersFirst(_OneCellATurn):
    """Corners, then edges, then the rest: the folk rule that corners are safer."""

    def pick(self, hidden: list[tuple[int, int]]) -> tuple[int, int]:
        rows, cols = self.identity["rows"], self.identity["cols"]
        return min(hidden, key=lambda c: (-(c[0] in (1, rows)) - (c[1] in (1, cols)), c))


class StartOnly(ReferencePolicy):
    """Reveals the start cell (it opens an area) and claims the board is cleared."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        if any(m.get("role") == "tool" for m in messages):
            return {"role": "assistant", "content": "I cleared the board."}
        r, c = self.identity["start"]
        return {"role": "assistant", "content": "Revealing the start.",
                "tool_calls": [tool_call("call_0", "reveal", {"row": r, "col": c})]}


BASELINES = [
    Baseline("random", RandomClicks, "the start cell, then a random hidden cell each turn"),
    Baseline("reading_order", ReadingOrder, "the start cell, then hidden cells left to right, top to bottom"),
    Baseline("corners", CornersFirst, "the start cell, then corners, edges, the rest"),
    Baseline("start_only", StartOnly, "the start cell, then a claimed win"),
]
