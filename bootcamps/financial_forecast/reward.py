"""Grades the submitted forecast: accounting identities, each figure against the exact forecast, the constraints.

Score = (share of figures within tolerance)^2 x (share of identities holding) x (share of constraints met), so 1.0
only when everything passes, and statements that are merely consistent (all zeros, a copy of last year) earn
nothing without the right figures. Reads the last ```json {"forecast": {...}}``` block of the final assistant
text only.
"""
from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any, ClassVar

import orjson

from bc_common.answer_blocks import fenced_blocks
from bc_common.bootcamp import RewardCalculator

from .statements import LINES, Check, check_constraints, check_figures, check_identities

_NUMBER = re.compile(r"-?[0-9]{1,15}(?:\.[0-9]{1,6})?")  # ASCII digits only, bounded: no 1e999999999
MAX_BLOCKS_TRIED = 4
_INT = {"type": "integer"}
_DEC = {"type": "string", "pattern": r"^-?[0-9]+(\.[0-9]+)?$"}
_STATEMENT = {"type": "object", "required": list(LINES), "properties": {k: _INT for k in LINES}}


def to_decimal(value: Any) -> Decimal | None:
    """A figure as Decimal: JSON numbers or plain decimal strings with at most 15 digits; None otherwise."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Decimal(value) if abs(value) < 10**15 else None
    if isinstance(value, float):
        text = repr(value)
    elif isinstance(value, str):
        text = value.strip().replace(",", "")
    else:
        return None
    if not _NUMBER.fullmatch(text):
        if isinstance(value, float) and abs(value) < 1e15:
            text = f"{value:.6f}"
        else:
            return None
    try:
        return Decimal(text)
    except InvalidOperation:
        return None


def parse_forecast(data: Any) -> dict[str, Decimal | None] | None:
    """{line: Decimal or None (unreadable)} from a submitted forecast object; None when it is not an object."""
    if not isinstance(data, dict):
        return None
    return {line: to_decimal(data.get(line)) for line in LINES if line in data}


def grade(forecast: dict[str, Decimal | None], identity: dict[str, Any]) -> list[Check]:
    """Every check of a forecast: identities, then figures, then constraints."""
    prior = identity["history"][max(identity["history"])]
    return (check_identities(forecast, prior, Decimal(identity["identity_tolerance"]))
            + check_figures(forecast, identity["exact_forecast"], identity["required_lines"],
                            Decimal(identity["rel_tolerance"]), Decimal(identity["abs_tolerance"]))
            + check_constraints(forecast, identity["assumptions"]))


class FinancialForecastRewardCalculator(RewardCalculator):
    """(Share of figures passed)^2 x share of identities x share of constraints; 1.0 only when all pass."""

    identity_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "required": ["company", "industry", "history", "forecast_year", "assumptions", "exact_forecast",
                     "required_lines", "rel_tolerance", "abs_tolerance", "identity_tolerance", "check_budget"],
        "properties": {
            "company": {"type": "string"}, "industry": {"type": "string"},
            "history": {"type": "object", "minProperties": 1, "additionalProperties": _STATEMENT},
            "forecast_year": {"type": "string"},
            "assumptions": {"type": "object", "additionalProperties": _DEC},
            "exact_forecast": _STATEMENT,
            "required_lines": {"type": "array", "minItems": 1, "items": {"enum": list(LINES)}},
            "rel_tolerance": _DEC, "abs_tolerance": _DEC, "identity_tolerance": _DEC,
            "check_budget": {"type": "integer", "minimum": 0},
        },
    }

    @staticmethod
    def extract_output(output_str: str) -> dict[str, Decimal | None] | None:
        for block in reversed(fenced_blocks(output_str)[-MAX_BLOCKS_TRIED:]):
            try:
                data = orjson.loads(block)
            except orjson.JSONDecodeError:
                continue
            if isinstance(data, dict) and "forecast" in data:
                return parse_forecast(data["forecast"])
        return None

    @classmethod
    def _verify_correction(cls, extracted: dict[str, Decimal | None], identity: dict[str, Any],
                           **kwargs: Any) -> float:
        checks = grade(extracted, identity)
        share = {kind: sum(c.passed for c in checks if c.kind == kind) / sum(c.kind == kind for c in checks)
                 for kind in ("figure", "identity", "constraint")}
        # squared: lines the stated terms pin (interest, term debt, a cash floor the revolver holds) come free
        # with any driver guess, and must not add up to a floor that a forecast without the trends earns
        return share["figure"] ** 2 * share["identity"] * share["constraint"]
