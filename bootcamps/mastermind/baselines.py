"""Baselines: guessing that never reads the pegs."""
from __future__ import annotations

import itertools
from typing import Any

from bc_common.bootcamp import ReferencePolicy


def _reply(messages: list[dict[str, Any]], guess: str) -> dict[str, Any]:
    turn = sum(m.get("role") == "assistant" for m in messages) + 1
    return {"role": "assistant", "content": f"Guess {turn}: <guess>{guess}</guess>"}


class RandomGuesser(ReferencePolicy):
    """Baseline: a random code of the task's colours every turn."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        colours, pegs = self.identity["colours"], self.identity["pegs"]
        return _reply(messages, "".join(self.rng.choice(colours) for _ in range(pegs)))


class ColourSweep(ReferencePolicy):
    """Baseline: one colour on every peg (AAAA, BBBB, ...), then the codes in order, whatever the pegs say."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        colours, pegs = self.identity["colours"], self.identity["pegs"]
        turn = sum(m.get("role") == "assistant" for m in messages)
        sweep = [c * pegs for c in colours]
        if turn < len(sweep):
            return _reply(messages, sweep[turn])
        codes = ("".join(code) for code in itertools.product(colours, repeat=pegs))
        return _reply(messages, next(itertools.islice(codes, turn - len(sweep), None)))

