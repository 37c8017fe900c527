"""The agent's tools over the task's hidden state (conditions, budget): the free closed-form `estimate` and the
budgeted PyBaMM `simulate`. Each returns a JSON object as text; the step reward is always 0 (calling a tool earns
nothing)."""
from __future__ import annotations

from typing import Any, ClassVar

import orjson

from bc_common.bootcamp import Tool
from bc_common.errors import ToolError

from .cell import BOUNDS, COOLING, simulate
from .estimate import estimate_report
from .task import conditions_of, design_from, report, window_errors

MAX_ESTIMATES = 400  # designs per `estimate` call

_DESIGN = {"type": "object", "description": (
    "A cell design: the keys the task lets you choose (positive_thickness_um, positive_porosity, and in harder "
    "tasks negative_thickness_um, positive_particle_radius_um, cooling); keys fixed by the task may be omitted."),
    "properties": {
        "positive_thickness_um": {"type": "integer", "description": "positive coating thickness, µm "
                                  f"({BOUNDS['positive_thickness_um'][0]}-{BOUNDS['positive_thickness_um'][1]})"},
        "positive_porosity": {"type": "number", "description": "positive electrode porosity (0.20-0.50)"},
        "negative_thickness_um": {"type": "integer", "description": "negative coating thickness, µm "
                                  f"({BOUNDS['negative_thickness_um'][0]}-{BOUNDS['negative_thickness_um'][1]})"},
        "positive_particle_radius_um": {"type": "integer", "description": "positive particle radius, µm (2-10)"},
        "cooling": {"type": "string", "enum": list(COOLING), "description": "cooling choice"},
    }}


def _text(payload: dict[str, Any]) -> str:
    return orjson.dumps(payload).decode()


class CellTool(Tool):
    """Shared state: the task's identity and the simulations spent."""

    tool_schema: ClassVar[dict[str, Any]] = {}

    def setup_state(self, identity: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return {"identity": identity, "simulations": 0}

    def _identity(self, instance_id: str) -> dict[str, Any]:
        identity = self.state(instance_id)["identity"]
        if not identity or "conditions" not in identity:
            raise ToolError("no_task", "this tool instance was created without a battery_design task")
        return identity

    @staticmethod
    def _design(values: Any, identity: dict[str, Any], where: str):
        design, errors = design_from(values, identity)
        if design is None:
            raise ToolError("invalid_design", f"{where}: " + "; ".join(errors))
        return design


class EstimateTool(CellTool):
    """Closed-form estimates for one or many designs; free."""

    tool_schema: ClassVar[dict[str, Any]] = {"type": "function", "function": {
        "name": "estimate",
        "description": "Free, closed-form and rough: for each design, the capacity from its loading, a cell "
                       "resistance (electrolyte, charge transfer, solid diffusion), the usable share of the "
                       "capacity, energy, specific energy, a lumped peak temperature and the mass, at this task's "
                       f"conditions. Give `design` (one) or `designs` (up to {MAX_ESTIMATES}).",
        "parameters": {"type": "object", "properties": {
            "design": _DESIGN,
            "designs": {"type": "array", "items": _DESIGN, "minItems": 1, "maxItems": MAX_ESTIMATES,
                        "description": "several designs, estimated in order"}},
            "additionalProperties": False}}}

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[str, float, dict]:
        identity = self._identity(instance_id)
        if ("design" in parameters) == ("designs" in parameters):
            raise ToolError("invalid_arguments", "give exactly one of `design` or `designs`")
        if "design" in parameters:
            design = self._design(parameters["design"], identity, "design")
            return _text(estimate_report(design, conditions_of(identity))), 0.0, {}
        many = parameters["designs"]
        if not isinstance(many, list) or not 1 <= len(many) <= MAX_ESTIMATES:
            raise ToolError("invalid_arguments", f"designs must be a list of 1 to {MAX_ESTIMATES} designs")
        conditions = conditions_of(identity)
        out = [estimate_report(self._design(v, identity, f"designs[{i}]"), conditions) for i, v in enumerate(many)]
        return _text({"estimates": out}), 0.0, {"designs": len(out)}


class SimulateTool(CellTool):
    """The PyBaMM discharge the answer is graded with; one unit of the task's budget per call."""

    tool_schema: ClassVar[dict[str, Any]] = {"type": "function", "function": {
        "name": "simulate",
        "description": "Simulate a design whose nominal capacity lies in the task's window with PyBaMM (SPMe + lumped thermal, Chen2020): a constant-current "
                       "discharge at this task's C-rate to 2.5 V. Reports energy, delivered and nominal capacity, "
                       "specific energy, peak temperature, why the discharge ended, mass, current, whether each "
                       "target is met, and the simulations left. Each call spends one unit of the budget; past "
                       "the budget nothing is simulated.",
        "parameters": {"type": "object", "properties": {"design": _DESIGN}, "required": ["design"],
                       "additionalProperties": False}}}

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any) -> tuple[str, float, dict]:
        identity = self._identity(instance_id)
        state = self.state(instance_id)
        budget = int(identity["budget"])
        if state["simulations"] >= budget:
            raise ToolError("budget_exhausted", f"all {budget} simulations of this task are spent; nothing was "
                                                "simulated (estimate is still free)")
        design = self._design(parameters.get("design"), identity, "design")
        if errors := window_errors(design, identity):
            raise ToolError("invalid_design", "design: " + "; ".join(errors) + " (nothing simulated, no budget "
                                              "spent)")
        state["simulations"] += 1
        payload = report(simulate(design, conditions_of(identity)), identity)
        payload["simulations_left"] = budget - state["simulations"]
        return _text(payload), 0.0, {"simulations": state["simulations"]}
