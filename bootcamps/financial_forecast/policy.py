"""The reference analyst: looks up every reported year, reads the operating drivers off the statements, extends
each by its linear trend, projects the opening year with them and the stated financing terms, checks the draft
with `check_forecast` and `ratio`, then answers with the forecast."""
from __future__ import annotations

from typing import Any

import orjson

from bc_common.bootcamp import ReferencePolicy, tool_call

from .statements import LINES, project_year
from .trend import forecast_drivers

FINANCING = ("interest_rate", "tax_rate", "payout_ratio", "debt_repayment", "min_cash", "leverage_cap")


def answer_text(forecast: dict[str, int]) -> str:
    return ("Forecast, in thousands:\n```json\n"
            + orjson.dumps({"forecast": forecast}).decode() + "\n```")


def reported_history(messages: list[dict[str, Any]], years: list[str]) -> dict[str, dict[str, int]] | None:
    """Every reported year's statements, as `lookup_statement` answered them, or None before a full look-up."""
    for msg in messages:
        if msg.get("role") != "tool":
            continue
        try:
            table = orjson.loads(msg.get("content") or "")
        except orjson.JSONDecodeError:
            continue
        if isinstance(table, dict) and all(isinstance(table.get(y), dict) and set(LINES) <= set(table[y])
                                           for y in years):
            return {y: table[y] for y in years}
    return None


class FinancialForecastPolicy(ReferencePolicy):
    """Forecasts exactly from the looked-up statements; `wrong=True` forgets the revenue growth."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        years = sorted(self.identity["history"])  # the prompt names the reported years
        history = reported_history(messages, years)
        if history is None and "lookup_statement" in self.tools and not any(
                m.get("role") == "tool" for m in messages):
            return {"role": "assistant", "content": "I need every reported year to read the drivers' trends.",
                    "tool_calls": [tool_call("call_lookup", "lookup_statement", {})]}
        if history is None:  # no tools offered: the figures come from the identity
            history = self.identity["history"]
        stated = {k: self.identity["assumptions"][k] for k in FINANCING}  # the prompt states these
        assumptions = {**stated, **forecast_drivers(history, int(self.identity["forecast_year"]))}
        opening = history[years[-1]]
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
