"""The reference policy: the procedure of search.py through the tools. One `estimate` call ranks the candidate
geometries; then one `simulate` per turn bisects the porosity; it answers with the first simulated design that
met both targets. It reads only the public task (what the prompt states) and the tools' reports."""
from __future__ import annotations

from typing import Any

import orjson

from bc_common.bootcamp import ReferencePolicy, tool_call, tool_reports

from .search import estimate_request, next_design, ranking, solved

# the lightest, least energetic corner of the design space: misses every energy target the generator sets
WRONG = {"positive_thickness_um": 40, "positive_porosity": 0.5, "negative_thickness_um": 160,
         "positive_particle_radius_um": 2, "cooling": "cold_plate"}


def answer_text(design: dict[str, Any]) -> str:
    return f"This design meets both targets in simulation.\n<answer>{orjson.dumps(design).decode()}</answer>"


class BatteryDesignPolicy(ReferencePolicy):
    """`wrong=True` answers with the lightest corner design (thin, porous, heavy negative and cooling)."""

    def _public(self) -> dict[str, Any]:
        return {k: self.identity[k] for k in ("free", "fixed", "capacity_window_ah", "targets", "budget")}

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        task = self._public()
        if wrong:
            return {"role": "assistant", "content": answer_text({k: WRONG[k] for k in task["free"]})}
        reports = tool_reports(messages)
        estimates = next((r for name, _a, r in reports if name == "estimate" and "estimates" in r), None)
        if estimates is None:
            return {"role": "assistant", "content": "Let me estimate the candidate designs first.",
                    "tool_calls": [tool_call("call_estimate", "estimate", {"designs": estimate_request(task)})]}
        order = ranking(task, estimates["estimates"])
        probes = [(args["design"], r) for name, args, r in reports if name == "simulate"]
        found = solved(probes)
        if found is not None:
            return {"role": "assistant", "content": answer_text(found)}
        design = next_design(task, order, probes)
        if design is None or len(probes) >= task["budget"]:
            return {"role": "assistant", "content": "No design I simulated met both targets."}
        return {"role": "assistant", "content": "Simulating the next candidate.",
                "tool_calls": [tool_call(f"call_sim_{len(probes)}", "simulate", {"design": design})]}
