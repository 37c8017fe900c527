"""The reference policy: measures the two bars of a best pair with `measure_bar` (when offered and the budget
allows), by the tags the picture shows, then answers the area found by two pointers. `wrong=True` answers one
less."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import ReferencePolicy, tool_call

from .solver import max_area


class ContainerWaterPolicy(ReferencePolicy):
    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        area, i, j = max_area(self.identity["heights"])
        measured = any(m.get("role") == "tool" for m in messages)
        budget = self.identity.get("measurements")
        if "measure_bar" in self.tools and not measured and (budget is None or budget >= 2):
            tags = self.identity.get("tags") or [str(k + 1) for k in range(len(self.identity["heights"]))]
            return {"role": "assistant", "content": f"Let me measure bars {tags[i - 1]} and {tags[j - 1]}.",
                    "tool_calls": [tool_call("call_0", "measure_bar", {"bar": tags[i - 1]}),
                                   tool_call("call_1", "measure_bar", {"bar": tags[j - 1]})]}
        answer = area - 1 if wrong else area
        return {"role": "assistant", "content": f"Bars {i} and {j} hold the most: <answer>{answer}</answer>"}
