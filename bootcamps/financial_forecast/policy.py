"""The reference analyst: looks up the opening year, projects it under the stated assumptions, checks the draft
with `check_forecast` and `ratio`, then answers with the forecast."""
from __future__ import annotations

from typing import Any

import orjson

from bc_common.bootcamp import ReferencePolicy, tool_call

from .statements import LINES, project_year


def answer_text(forecast: dict[str, int]) -> str:
    return ("Forecast, in thousands:\n```json\n"
            + orjson.dumps({"forecast": forecast}).decode() + "\n```")


class FinancialForecastPolicy(ReferencePolicy):
    """Projects exactly from the looked-up opening year; `wrong=True` forgets the revenue growth."""

    def _opening(self, messages: list[dict[str, Any]]) -> dict[str, int] | None:
        last = max(self.identity["history"])
        for msg in messages:
            if msg.get("role") != "tool":
                continue
            try:
                table = orjson.loads(msg.get("content") or "")
            except orjson.JSONDecodeError:
                continue
            if isinstance(table, dict) and isinstance(table.get(last), dict) and set(LINES) <= set(table[last]):
                return table[last]
        return None

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        last = max(self.identity["history"])
        opening = self._opening(messages)
        if opening is None and "lookup_statement" in self.tools and not any(
                m.get("role") == "tool" for m in messages):
            return {"role": "assistant", "content": f"I need the {last} statements as the opening position.",
                    "tool_calls": [tool_call("call_lookup", "lookup_statement", {"years": [last]})]}
        if opening is None:  # no tools offered: the figures come from the identity the prompt describes
            opening = self.identity["history"][last]
        assumptions = dict(self.identity["assumptions"])
        if wrong:
            assumptions["revenue_growth"] = "0"
        forecast = project_year(opening, assumptions)
        checked = any(m.get("role") == "tool" and "checks left" in str(m.get("content")) for m in messages)
        if not checked and "check_forecast" in self.tools:
            calls = [tool_call("call_check", "check_forecast", {"forecast": forecast})]
            if "ratio" in self.tools:
                figures = {k: forecast[k] for k in ("term_debt", "revolver", "cash", "ebitda")}
                calls.append(tool_call("call_ratio", "ratio", {"name": "net_debt_to_ebitda", "figures": figures}))
            return {"role": "assistant", "content": "Checking the draft's identities and leverage.",
                    "tool_calls": calls}
        return {"role": "assistant", "content": answer_text(forecast)}
