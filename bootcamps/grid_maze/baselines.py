"""Baselines that never look at the picture (where S, G and the walls are): fixed and random move strings."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import ReferencePolicy


def _answer(moves: list[str]) -> dict[str, Any]:
    return {"role": "assistant", "content": f"<answer>{' '.join(moves)}</answer>"}


class CornerToCorner(ReferencePolicy):
    """Baseline: right along the top, then down (the route from one corner to the other), from the stated size."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        return _answer(["R"] * (self.identity["cols"] - 1) + ["D"] * (self.identity["rows"] - 1))


class RandomMoves(ReferencePolicy):
    """Baseline: as many random moves as the maze is wide and tall."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        count = self.identity["rows"] + self.identity["cols"] - 2
        return _answer([self.rng.choice("UDLR") for _ in range(count)])
