"""The reference policy: measures the two bars of a best pair with `measure_bar` (when offered), then answers
the area found by two pointers. `wrong=True` answers one less."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import ReferencePolicy, tool_call

from .solver import max_area


class ContainerWaterPolicy(ReferencePolicy):
    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        area, i, j = max_area(self.identity["heights"])
        measured = any(m.get("role") == "tool" for m in messages)
        if "measure_bar" in self.tools and not measured:
            return {"role": "assistant", "content": f"Let me measure bars {i} and {j}.",
                    "tool_calls": [tool_call("call_0", "measure_bar", {"bar": i}),
                                   tool_call("call_1", "measure_bar", {"bar": j})]}
        answer = area - 1 if wrong else area
        return {"role": "assistant", "content": f"Bars {i} and {j} hold the most: <answer>{answer}</answer>"}
