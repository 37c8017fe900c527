"""The reference policy: answers from the identity (the picture's data). `wrong=True` gives another series, the
integer off by one, or the opposite direction."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import ReferencePolicy


class ChartReadPolicy(ReferencePolicy):
    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        answer = self.identity["answer"]
        if wrong:
            answer = self._wrong(answer)
        return {"role": "assistant", "content": f"Reading the chart: <answer>{answer}</answer>"}

    def _wrong(self, answer: str) -> str:
        kind = self.identity["question"]["type"]
        if kind == "difference":
            return str(int(answer) + 1)
        words = answer.split()
        if kind == "trend":
            words[1] = "decreasing" if words[1] == "increasing" else "increasing"
            return " ".join(words)
        others = [s["name"] for s in self.identity["series"] if s["name"] != words[0]]
        return " ".join([others[0], *words[1:]])
