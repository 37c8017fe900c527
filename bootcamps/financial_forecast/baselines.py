"""Baselines: the forecasts a lazy analyst writes first. An all-zero forecast (consistent, trivially); last year's
statements copied; and the naive forecast that carries last year's operating drivers forward (no trend)."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import ReferencePolicy, tool_call

from .policy import FINANCING, answer_text, reported_history
from .statements import LINES, project_year
from .trend import reported_drivers


def _look_up(self: ReferencePolicy, messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The reported statements {year: lines} once looked up (or the identity's when no tool is offered); else the
    assistant message that calls `lookup_statement` (it has a "role" key)."""
    history = reported_history(messages, sorted(self.identity["history"]))
    if history is not None or "lookup_statement" not in self.tools:
        return history if history is not None else self.identity["history"]
    return {"role": "assistant", "content": "Let me read the reported statements.",
            "tool_calls": [tool_call("call_lookup", "lookup_statement", {})]}


class ZeroForecastPolicy(ReferencePolicy):
    """Baseline: every line 0 (the statements balance trivially)."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        return {"role": "assistant", "content": answer_text(dict.fromkeys(LINES, 0))}


class CopyLastYearPolicy(ReferencePolicy):
    """Baseline: last year's reported statements as the forecast."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        history = _look_up(self, messages)
        if "role" in history:
            return history
        return {"role": "assistant", "content": answer_text(history[max(history)])}


class LastDriversPolicy(ReferencePolicy):
    """Baseline: the naive forecast, last year's operating drivers carried forward with the stated financing."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        history = _look_up(self, messages)
        if "role" in history:
            return history
        last = {name: f"{points[-1][1]:f}" for name, points in reported_drivers(history).items()}
        stated = {k: self.identity["assumptions"][k] for k in FINANCING}
        return {"role": "assistant", "content": answer_text(project_year(history[max(history)], {**stated, **last}))}
