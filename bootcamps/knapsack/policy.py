"""The reference policy: checks an optimal selection with `evaluate_selection`, then answers with it."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import ReferencePolicy, tool_call

from .solver import best_selection


def answer_text(items: list[int]) -> str:
    return f"```json\n{{\"items\": [{', '.join(map(str, items))}]}}\n```"


class KnapsackPolicy(ReferencePolicy):
    """Uses the identity's optimal selection (the DP when the identity has none). `wrong=True` answers a worse
    selection: the optimal one without its most valuable item."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        items = self._items(wrong)
        checked = any(m.get("role") == "tool" for m in messages)
        if "evaluate_selection" in self.tools and not checked:
            return {"role": "assistant", "content": "Let me check this selection.",
                    "tool_calls": [tool_call("call_0", "evaluate_selection", {"items": items})]}
        return {"role": "assistant", "content": f"My selection:\n{answer_text(items)}"}

    def _items(self, wrong: bool) -> list[int]:
        ident = self.identity
        items = ident.get("items")
        if items is None:
            items = best_selection(ident["weights"], ident["values"], ident["capacity"])[1]
        items = list(items)
        if wrong and items:
            items.remove(max(items, key=lambda i: (ident["values"][i - 1], i)))
        return items
