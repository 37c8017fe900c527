"""The reference procedure, shared by the policy and the generator (which keeps only tasks it solves).

1. Candidate geometries: positive thicknesses 45-135 µm in 10 µm steps, radii 3/5/7 µm, every cooling choice
   (each only where the task leaves it free), and the thinnest negative on a 20 µm grid holding 1.1 x the top of
   the capacity window. For each, the porosities whose closed-form capacity lies in the window (an interval).
2. One `estimate` call on every candidate at the middle of its interval ranks them: the most specific energy
   predicted within the temperature cap first (then the coolest).
3. On the best TOP_GEOMETRIES, bisect the porosity inside the interval with `simulate` (one budget unit each):
   too hot or transport-limited -> more porosity; cool but short of energy -> less. Stop at the first design
   meeting both targets; move to the next geometry when the interval is narrower than MIN_GAP.

It reads only the public task (what the prompt states) and the tools' reports.
"""
from __future__ import annotations

import functools
from typing import Any

import orjson

from .cell import COOLING, Design, capacities_ah, nominal_capacity_ah
from .task import USABLE_SHARE

POSITIVE_GRID = tuple(range(45, 136, 10))
NEGATIVE_GRID = tuple(range(60, 161, 20))
RADIUS_GRID = (3, 5, 7)
LOW, HIGH = 0.20, 0.50
MIN_GAP = 0.005  # a porosity interval narrower than this is closed
NP_RATIO = 1.1
TOP_GEOMETRIES = 3  # geometries bisected, best first (about 3 simulations each)

Probe = tuple[dict[str, Any], dict[str, Any]]  # (a design's free keys, its `simulate` report)


def balanced_negative(top_ah: float) -> int:
    """The thinnest negative on NEGATIVE_GRID holding NP_RATIO x the capacity `top_ah`."""
    _, per_um = capacities_ah(Design(100, 0.30, 1, 5, "passive"))
    return next((n for n in NEGATIVE_GRID if n * per_um >= NP_RATIO * top_ah), NEGATIVE_GRID[-1])


def porosity_interval(geometry: dict[str, Any], window: list[float]) -> tuple[float, float] | None:
    """The porosities (0.001 grid) whose nominal capacity lies in the window, as (lowest, highest), or None."""
    dense, negative = capacities_ah(Design(**geometry, positive_porosity=0.0))  # the positive scales with 1 - eps
    inside = [eps / 1000 for eps in range(round(LOW * 1000), round(HIGH * 1000) + 1)
              if window[0] <= min(dense * (1 - eps / 1000), negative) <= window[1]]

    def exact(eps: float) -> bool:  # the verifier's own arithmetic decides at the ends
        return window[0] <= nominal_capacity_ah(Design(**geometry, positive_porosity=eps)) <= window[1]

    while inside and not exact(inside[0]):
        inside.pop(0)
    while inside and not exact(inside[-1]):
        inside.pop()
    return (inside[0], inside[-1]) if inside else None


def candidates(task: dict[str, Any]) -> list[tuple[dict[str, Any], tuple[float, float]]]:
    """(geometry, porosity interval) for every candidate geometry that can meet the capacity window."""
    key = orjson.dumps([task["fixed"], task["free"], task["capacity_window_ah"]], option=orjson.OPT_SORT_KEYS)
    return [(dict(g), i) for g, i in _candidates(key)]


@functools.lru_cache(maxsize=1024)
def _candidates(key: bytes) -> tuple[tuple[tuple[tuple[str, Any], ...], tuple[float, float]], ...]:
    fixed, free_list, window = orjson.loads(key)
    task = {"fixed": fixed, "free": free_list, "capacity_window_ah": window}
    return tuple((tuple(g.items()), i) for g, i in _candidate_list(task))


def _candidate_list(task: dict[str, Any]) -> list[tuple[dict[str, Any], tuple[float, float]]]:
    fixed, free = task["fixed"], set(task["free"])
    radii = RADIUS_GRID if "positive_particle_radius_um" in free else (fixed["positive_particle_radius_um"],)
    coolings = tuple(COOLING) if "cooling" in free else (fixed["cooling"],)
    negative = (balanced_negative(task["capacity_window_ah"][1]) if "negative_thickness_um" in free
                else fixed["negative_thickness_um"])
    out: list[tuple[dict[str, Any], tuple[float, float]]] = []
    intervals: dict[tuple[int, int], tuple[float, float] | None] = {}  # the capacity ignores the cooling
    for positive in POSITIVE_GRID:
        for radius in radii:
            for cooling in coolings:
                geometry = {"positive_thickness_um": positive, "negative_thickness_um": negative,
                            "positive_particle_radius_um": radius, "cooling": cooling}
                interval = intervals.get((positive, radius))
                if (positive, radius) not in intervals:
                    interval = intervals[positive, radius] = porosity_interval(geometry, task["capacity_window_ah"])
                if interval is not None:
                    out.append((geometry, interval))
    return out


def as_free(task: dict[str, Any], full: dict[str, Any]) -> dict[str, Any]:
    """The design as the model writes it: the free keys only, in the task's order."""
    return {k: full[k] for k in task["free"]}


def _mid(interval: tuple[float, float]) -> float:
    return round((interval[0] + interval[1]) / 2, 3)


def estimate_request(task: dict[str, Any]) -> list[dict[str, Any]]:
    """The designs step 2 sends to `estimate`: each candidate at the middle of its interval."""
    return [as_free(task, {**g, "positive_porosity": _mid(i)}) for g, i in candidates(task)]


def _key(task: dict[str, Any], design: dict[str, Any]) -> tuple:
    full = {**task["fixed"], **design}
    return (full["positive_thickness_um"], full["negative_thickness_um"], full["positive_particle_radius_um"],
            full["cooling"])


def ranking(task: dict[str, Any], estimates: list[dict[str, Any]]) -> list[tuple[dict[str, Any], tuple]]:
    """The TOP_GEOMETRIES best (geometry, interval), given the `estimate` reports of `estimate_request`."""
    cap = task["targets"]["max_temperature_c"]
    scored = []
    for (geometry, interval), est in zip(candidates(task), estimates, strict=True):
        energy, peak = float(est["specific_energy_wh_kg"]), float(est["peak_temperature_c"])
        scored.append(((-(energy if peak <= cap else 0.0), peak, _key(task, geometry)), geometry, interval))
    scored.sort(key=lambda s: s[0])
    return [(g, i) for _s, g, i in scored[:TOP_GEOMETRIES]]


def next_design(task: dict[str, Any], order: list[tuple[dict[str, Any], tuple]],
                probes: list[Probe]) -> dict[str, Any] | None:
    """The next design to simulate (free keys), or None when the ranked geometries are exhausted."""
    for geometry, (low, high) in order:
        key = _key(task, geometry)
        lo, hi = low, high
        for design, result in probes:
            if _key(task, design) != key:
                continue
            eps = float(design["positive_porosity"])
            if (not result["temperature_target_met"]
                    or result["capacity_ah"] < USABLE_SHARE * result["nominal_capacity_ah"]):
                lo = max(lo, eps + 0.001)  # too hot or transport-limited: open the pores
            elif not result["energy_target_met"]:
                hi = min(hi, eps - 0.001)  # cool but short of energy: pack more material
        if hi < lo or (hi - lo < MIN_GAP and any(_key(task, d) == key for d, _r in probes)):
            continue
        return as_free(task, {**geometry, "positive_porosity": round((lo + hi) / 2, 3)})
    return None


def solved(probes: list[Probe]) -> dict[str, Any] | None:
    """The first probe whose report met both targets."""
    return next((d for d, r in probes if r["energy_target_met"] and r["temperature_target_met"]), None)
