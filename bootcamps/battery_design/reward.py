"""Grades the final assistant text: the JSON design in the last <answer></answer>, checked against the task's
bounds, design grid and capacity window, then re-simulated with PyBaMM. 1.0 iff the specific-energy target and the temperature cap
are both met; a valid design that misses scores half the product of how close it comes (< 0.5); anything else 0.
"""
from __future__ import annotations

from typing import Any, ClassVar

import orjson

from bc_common.answer_blocks import last_tagged
from bc_common.bootcamp import RewardCalculator

from .cell import BOUNDS, COOLING, DESIGN_KEYS, simulate
from .task import conditions_of, design_from, partial_score, window_errors

MAX_ANSWER_CHARS = 2000  # a design is a few keys; longer bodies are not answers

_NUMBER = {"type": "number"}
_FULL_DESIGN = {"type": "object", "required": list(DESIGN_KEYS), "additionalProperties": False, "properties": {
    **{k: _NUMBER for k in BOUNDS}, "cooling": {"enum": list(COOLING)}}}


class BatteryDesignRewardCalculator(RewardCalculator):
    """1.0 when the re-simulated design meets both targets; < 0.5 when it misses one; 0 when invalid."""

    identity_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "required": ["free", "fixed", "conditions", "show_heat_transfer", "capacity_window_ah", "targets", "budget",
                     "oracle"],
        "additionalProperties": False,
        "properties": {
            "free": {"type": "array", "minItems": 2, "uniqueItems": True, "items": {"enum": list(DESIGN_KEYS)}},
            "fixed": {"type": "object", "additionalProperties": False, "properties": {
                "negative_thickness_um": {"type": "integer"}, "positive_particle_radius_um": {"type": "integer"},
                "cooling": {"enum": list(COOLING)}}},
            "conditions": {"type": "object", "required": ["c_rate", "ambient_c", "heat_transfer"],
                           "additionalProperties": False, "properties": {
                               "c_rate": {"type": "number", "exclusiveMinimum": 0}, "ambient_c": _NUMBER,
                               "heat_transfer": {"type": "number", "exclusiveMinimum": 0}}},
            "show_heat_transfer": {"type": "boolean"},
            "capacity_window_ah": {"type": "array", "minItems": 2, "maxItems": 2,
                                   "items": {"type": "number", "exclusiveMinimum": 0}},
            "targets": {"type": "object", "required": ["specific_energy_wh_kg", "max_temperature_c"],
                        "additionalProperties": False,
                        "properties": {"specific_energy_wh_kg": {"type": "number", "exclusiveMinimum": 0},
                                       "max_temperature_c": _NUMBER}},
            "budget": {"type": "integer", "minimum": 1},
            "oracle": _FULL_DESIGN,
        },
    }

    @staticmethod
    def extract_output(output_str: str) -> dict[str, Any] | None:
        body = last_tagged(output_str, max_length=MAX_ANSWER_CHARS)
        if body is None:
            return None
        try:
            data = orjson.loads(body.strip())
        except orjson.JSONDecodeError:
            return None
        return data if isinstance(data, dict) else None

    @classmethod
    def _verify_correction(cls, extracted: dict[str, Any], identity: dict[str, Any], **kwargs: Any) -> float:
        design, errors = design_from(extracted, identity)
        if design is None or window_errors(design, identity):
            return 0.0  # out of bounds, off the grid, a fixed key changed, a key missing or unknown, off-spec
        return partial_score(simulate(design, conditions_of(identity)), identity)
