"""A task's view of the cell: its conditions and targets, a design completed from the free keys, and the verdict
of a discharge against the targets (the same rule for the `simulate` tool and the verifier)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cell import DESIGN_KEYS, Conditions, Design, Discharge, design_errors, make_design, nominal_capacity_ah

USABLE_SHARE = 0.85  # a discharge that delivers less of the nominal capacity has hit a transport limit
# partial credit is for near misses only: a design under the cap within this share of the energy target. The
# closed-form estimate's favourite often lands a few percent short: trusting the estimate earns little
NEAR_MISS = 0.02


def conditions_of(identity: dict[str, Any]) -> Conditions:
    c = identity["conditions"]
    return Conditions(float(c["c_rate"]), float(c["ambient_c"]), float(c["heat_transfer"]))


def window_errors(design: Design, identity: dict[str, Any]) -> list[str]:
    """Whether the design's nominal capacity (closed form, from loading) lies in the task's capacity window."""
    lo, hi = identity["capacity_window_ah"]
    capacity = nominal_capacity_ah(design)
    return [] if lo <= capacity <= hi else [f"nominal capacity {capacity:.3f} A h is outside the window "
                                           f"[{lo:g}, {hi:g}] A h"]


def design_from(values: Any, identity: dict[str, Any]) -> tuple[Design | None, list[str]]:
    """The full design for the task's free keys plus its fixed ones, or (None, what is wrong)."""
    if not isinstance(values, dict):
        return None, ["the design must be a JSON object"]
    fixed, free = identity["fixed"], identity["free"]
    errors = [f"{k} is fixed at {fixed[k]!r} in this task" for k in fixed if k in values and values[k] != fixed[k]]
    errors += [f"{k} is missing" for k in free if k not in values]
    errors += [f"unknown design key {k!r}" for k in values if k not in DESIGN_KEYS]
    if errors:
        return None, errors
    full = {**fixed, **{k: values[k] for k in free}}
    errors = design_errors(full)
    return (None, errors) if errors else (make_design(full), [])


@dataclass(frozen=True)
class Verdict:
    energy_met: bool
    temperature_met: bool

    @property
    def both(self) -> bool:
        return self.energy_met and self.temperature_met


def verdict(result: Discharge, identity: dict[str, Any]) -> Verdict:
    targets = identity["targets"]
    return Verdict(result.specific_energy_wh_kg >= targets["specific_energy_wh_kg"],
                   result.peak_temperature_c <= targets["max_temperature_c"])


def partial_score(result: Discharge, identity: dict[str, Any]) -> float:
    """1.0 when both targets are met; a design under the temperature cap that falls short of the energy target by
    less than NEAR_MISS earns up to 0.49 (linear in how much of that last stretch it covers); anything else 0."""
    v = verdict(result, identity)
    if v.both:
        return 1.0
    if not v.temperature_met:
        return 0.0
    shortfall = 1.0 - result.specific_energy_wh_kg / identity["targets"]["specific_energy_wh_kg"]
    return min(0.49, 0.5 * max(0.0, 1.0 - shortfall / NEAR_MISS))


def report(result: Discharge, identity: dict[str, Any]) -> dict[str, Any]:
    """The discharge as the `simulate` tool reports it."""
    v = verdict(result, identity)
    return {"energy_wh": round(result.energy_wh, 3), "capacity_ah": round(result.capacity_ah, 3),
            "specific_energy_wh_kg": round(result.specific_energy_wh_kg, 2),
            "peak_temperature_c": round(result.peak_temperature_c, 2), "end_reason": result.end_reason,
            "nominal_capacity_ah": round(result.nominal_capacity_ah, 3), "mass_g": round(result.mass_kg * 1000, 2), "current_a": round(result.current_a, 3),
            "energy_target_met": v.energy_met, "temperature_target_met": v.temperature_met}
