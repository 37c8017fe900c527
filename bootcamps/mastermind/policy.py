"""The reference policy: Knuth's minimax strategy on the feedback read back from the code-maker's messages."""
from __future__ import annotations

import re
from typing import Any

from bc_common.bootcamp import ReferencePolicy

from .codes import guess_in, is_code
from .knuth import Knuth

_MARKS = re.compile(r"-> (\d+) black, (\d+) white")


def history_of(messages: list[dict[str, Any]]) -> list[tuple[str, tuple[int, int]]]:
    """(guess, (black, white)) for every assistant guess that the next user message answered with pegs."""
    out = []
    for i, msg in enumerate(messages):
        if msg.get("role") != "assistant":
            continue
        reply = messages[i + 1] if i + 1 < len(messages) else None
        marks = _MARKS.search(str(reply.get("content") or "")) if reply and reply.get("role") == "user" else None
        guess = guess_in(str(msg.get("content") or ""))
        if guess and marks:
            out.append((guess, (int(marks[1]), int(marks[2]))))
    return out


class MastermindPolicy(ReferencePolicy):
    """Always within par (Knuth's worst case). `wrong=True` spends the turn on a code that cannot be the secret
    (one the feedback already rules out, or any other code on the first turn)."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        ident = self.identity
        knuth = Knuth.of(ident["pegs"], len(ident["colours"]))
        there, back = Knuth.translation(ident["colours"])
        history = [(g.translate(there), m) for g, m in history_of(messages)
                   if is_code(g, ident["pegs"], ident["colours"])]
        guess = knuth.next_guess(history).translate(back)
        if wrong:
            guess = self._wasted(knuth, history, back)
        turn = sum(m.get("role") == "assistant" for m in messages) + 1
        return {"role": "assistant", "content": f"Guess {turn}: <guess>{guess}</guess>"}

    def _wasted(self, knuth: Knuth, history: list, back: dict[int, int]) -> str:
        alive = set(knuth.candidates(history))
        secret = self.identity["secret"]
        for i, code in enumerate(knuth.codes):
            mine = code.translate(back)
            if mine != secret and (i not in alive or not history):
                return mine
        return next(c.translate(back) for c in knuth.codes if c.translate(back) != secret)
