"""The reference policy of every rg/<dataset>: the stored answer (or a solver's), in an answer block; with
`wrong=True` an answer the verifier itself scores below 1.0."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import ReferencePolicy

from .reward import entry_of, score
from .solvers import SOLVERS


def reference_answer(identity: dict[str, Any]) -> str:
    """The answer the reference gives: reasoning-gym's stored one, or a solver's where none is stored."""
    solver = SOLVERS.get(identity["dataset"])
    if solver is not None:
        return solver(entry_of(identity)["metadata"], lambda answer: score(identity, answer) >= 1.0)
    return str(identity["answer"])


def _mutations(right: str) -> list[str]:
    """Near misses first (a digit changed, a word dropped), then answers unlike any right one."""
    out = []
    for i in range(len(right) - 1, -1, -1):
        if right[i].isdigit():
            out.append(right[:i] + str((int(right[i]) + 1) % 10) + right[i + 1:])
            break
    words = right.split()
    if len(words) > 1:
        out.append(" ".join(words[:-1]))
    out += [right[::-1], right + "0", "0", "none", "-"]
    return [c for c in out if c != right]


def wrong_answer(identity: dict[str, Any], right: str) -> str:
    """The first near miss the verifier scores below 1.0 (an empty answer if every candidate passes)."""
    for candidate in _mutations(right):
        try:
            if score(identity, candidate) < 1.0:
                return candidate
        except Exception:  # noqa: BLE001  (a candidate the scorer chokes on is not an answer it accepts)
            return candidate
    return ""


class RGPolicy(ReferencePolicy):
    """Answers in one turn: `<answer>...</answer>`."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        answer = reference_answer(self.identity)
        if wrong:
            answer = wrong_answer(self.identity, answer)
        return {"role": "assistant", "content": f"<answer>{answer}</answer>"}
