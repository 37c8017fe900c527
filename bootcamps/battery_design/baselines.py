"""Baselines: the cheap designs a lazy policy finds first. They read only the public task and the tools' reports,
like the reference, and never search: the closed-form estimate's favourite, the middle of every range, and one
simulation of the estimate's favourite answered whatever it reports."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import ReferencePolicy, tool_call, tool_reports

from .cell import BOUNDS, COOLING
from .policy import answer_text
from .search import as_free, estimate_request, ranking


def _public(identity: dict[str, Any]) -> dict[str, Any]:
    return {k: identity[k] for k in ("free", "fixed", "capacity_window_ah", "targets", "budget")}


def _favourite(task: dict[str, Any], messages: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The design the closed-form `estimate` ranks first (its porosity interval's middle), once estimated."""
    estimates = next((r for name, _a, r in tool_reports(messages) if name == "estimate" and "estimates" in r), None)
    if estimates is None:
        return None
    order = ranking(task, estimates["estimates"])
    if not order:
        return None
    geometry, (low, high) = order[0]
    return as_free(task, {**geometry, "positive_porosity": round((low + high) / 2, 3)})


def _estimate_call() -> dict[str, Any]:
    return {"role": "assistant", "content": "Let me estimate the candidate designs."}


class EstimateOnlyPolicy(ReferencePolicy):
    """Baseline: trusts the closed-form estimate and answers its favourite design without simulating."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        task = _public(self.identity)
        design = _favourite(task, messages)
        if design is None:
            return {**_estimate_call(), "tool_calls": [
                tool_call("call_estimate", "estimate", {"designs": estimate_request(task)})]}
        return {"role": "assistant", "content": answer_text(design)}


class OneSimulationPolicy(ReferencePolicy):
    """Baseline: simulates the estimate's favourite once and answers it whatever the simulation says."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        task = _public(self.identity)
        design = _favourite(task, messages)
        if design is None:
            return {**_estimate_call(), "tool_calls": [
                tool_call("call_estimate", "estimate", {"designs": estimate_request(task)})]}
        if not any(name == "simulate" for name, _a, _r in tool_reports(messages)):
            return {"role": "assistant", "content": "One simulation to confirm.",
                    "tool_calls": [tool_call("call_sim", "simulate", {"design": design})]}
        return {"role": "assistant", "content": answer_text(design)}


class MiddlePolicy(ReferencePolicy):
    """Baseline: the middle of every range it may choose (and the middle cooling), no tools."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        middle: dict[str, Any] = {k: (lo + hi) / 2 for k, (lo, hi) in BOUNDS.items()}
        for key in ("positive_thickness_um", "negative_thickness_um", "positive_particle_radius_um"):
            middle[key] = round(middle[key])
        middle["positive_porosity"] = round(middle["positive_porosity"], 3)
        middle["cooling"] = list(COOLING)[len(COOLING) // 2]
        return {"role": "assistant", "content": answer_text({k: middle[k] for k in self.identity["free"]})}
