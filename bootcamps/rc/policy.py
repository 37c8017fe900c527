"""The reference policy of every rc/<task>: the generator's own answer, in an answer block; with `wrong=True` a
near miss the verifier itself scores below 1.0."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import ReferencePolicy

from .reward import score


def reference_answer(identity: dict[str, Any]) -> str:
    """The answer reasoning-core stored with the item, as text."""
    answer = identity["answer"]
    return answer if isinstance(answer, str) else str(answer)


def _near_misses(right: str) -> list[str]:
    """Near misses first (the last digit changed, the last word or line dropped), then answers unlike any."""
    out = []
    for i in range(len(right) - 1, -1, -1):
        if right[i].isdigit():
            out.append(right[:i] + str((int(right[i]) + 1) % 10) + right[i + 1:])
            break
    for sep in ("\n", " ", ","):
        parts = right.split(sep)
        if len(parts) > 1:
            out.append(sep.join(parts[:-1]))
    out += [right[::-1], right + "0", "0", "none", "-"]
    return [c for c in out if c.strip() != right.strip()]


def wrong_answer(identity: dict[str, Any], right: str) -> str:
    """The first near miss the verifier scores below 1.0 (an empty answer if every candidate passes)."""
    for candidate in _near_misses(right):
        try:
            if score(identity, candidate) < 1.0:
                return candidate
        except Exception:  # noqa: BLE001  (a candidate the scorer chokes on is not an answer it accepts)
            return candidate
    return ""


class RCPolicy(ReferencePolicy):
    """Answers in one turn: `<answer>...</answer>`."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        answer = reference_answer(self.identity)
        if wrong:
            answer = wrong_answer(self.identity, answer)
        return {"role": "assistant", "content": f"<answer>{answer}</answer>"}
