"""Seeded design tasks, solvable by construction.

A draw picks the conditions (C-rate, ambient temperature, heat-transfer coefficient), the fixed design keys and a
capacity window, and a temperature cap (ambient + a drawn share of a middle candidate's simulated rise, so the cap
binds). It then runs the reference procedure (search.py) with PyBaMM under the cap and no energy target: the most
energetic clean design it simulates is the oracle, and the energy target is (1 - energy_margin) x the oracle's
specific energy. The procedure then reaches a design meeting both targets within the budget (it replays the same
probes and stops at the first that meets them; checked). The oracle goes into the identity, never into the
prompt. A draw with no clean design under the cap is redrawn.
"""
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bc_common.bootcamp import InstructionGenerator

from .cell import COOLING, Conditions, Design, Discharge, capacities_ah, simulate
from .estimate import estimate_report
from .prompt import render_prompt
from .search import Probe, as_free, candidates, estimate_request, next_design, ranking, solved
from .task import USABLE_SHARE, conditions_of, design_from, report

FREE_ORDER = ("positive_thickness_um", "positive_porosity", "negative_thickness_um", "positive_particle_radius_um",
              "cooling")
FIXED_NEGATIVES = (80, 100, 120, 140)  # µm, a fixed negative is one of these
FIXED_RADIUS = 5  # µm


@dataclass
class BatteryDesignConfig:
    design_negative: bool = False  # the negative electrode's thickness is the agent's (else drawn, stated)
    design_particle: bool = False  # the positive particle radius is the agent's (else 5 µm)
    design_cooling: bool = False  # the cooling choice is the agent's (else drawn, stated)
    show_heat_transfer: bool = True  # the prompt states the heat-transfer coefficient (else only the tools know)
    c_rate_min: float = 0.5
    c_rate_max: float = 3.0
    ambient_min_c: float = 0.0
    ambient_max_c: float = 40.0
    heat_transfer_min: float = 5.0  # W/m2/K
    heat_transfer_max: float = 40.0
    capacity_min_ah: float = 3.0  # the nominal-capacity spec: a value drawn in [min, max] ...
    capacity_max_ah: float = 6.5
    capacity_tolerance: float = 0.025  # ... +- this share
    rise_min: float = 0.85  # the cap allows this share of a middle candidate's temperature rise ...
    rise_max: float = 1.15  # ... up to this share
    energy_margin: float = 0.002  # the energy target is this share below the oracle's
    budget: int = 12  # simulate calls per task
    # simulations the reference search must need: with 2, the closed-form estimate's favourite (its first probe)
    # misses a target, so trusting the estimate, or simulating its favourite once, does not solve the task
    min_simulations: int = 2
    max_draws: int = 60

    def validate(self) -> None:
        if not 0.2 <= self.c_rate_min <= self.c_rate_max <= 5.0:
            raise ValueError("need 0.2 <= c_rate_min <= c_rate_max <= 5")
        if not -20.0 <= self.ambient_min_c <= self.ambient_max_c <= 50.0:
            raise ValueError("need -20 <= ambient_min_c <= ambient_max_c <= 50 (°C)")
        if not 1.0 <= self.heat_transfer_min <= self.heat_transfer_max <= 200.0:
            raise ValueError("need 1 <= heat_transfer_min <= heat_transfer_max <= 200 (W/m2/K)")
        if not 1.0 <= self.capacity_min_ah <= self.capacity_max_ah <= 8.0:
            raise ValueError("need 1 <= capacity_min_ah <= capacity_max_ah <= 8 (A h)")
        if not 0.005 <= self.capacity_tolerance <= 0.2:
            raise ValueError("capacity_tolerance must be in [0.005, 0.2]")
        if not 0.0 <= self.energy_margin <= 0.2:
            raise ValueError("energy_margin must be in [0, 0.2]")
        if not 0.2 <= self.rise_min <= self.rise_max <= 3.0:
            raise ValueError("need 0.2 <= rise_min <= rise_max <= 3")
        if not 1 <= self.budget <= 50:
            raise ValueError("budget must be in 1..50")
        if not 1 <= self.min_simulations <= self.budget:
            raise ValueError("min_simulations must be in 1..budget")
        if not 1 <= self.max_draws <= 1000:
            raise ValueError("max_draws must be in 1..1000")


def run_search(identity: dict[str, Any], simulate_free: Callable[[dict[str, Any]], Discharge],
               limit: int) -> list[Probe]:
    """The reference procedure's simulations, stopping at the first design meeting both targets or at `limit`."""
    conditions = conditions_of(identity)
    estimates = [estimate_report(design_from(values, identity)[0], conditions) for values in estimate_request(identity)]
    order = ranking(identity, estimates)
    probes: list[Probe] = []
    while len(probes) < limit and solved(probes) is None:
        values = next_design(identity, order, probes)
        if values is None:
            break
        probes.append((values, report(simulate_free(values), identity)))
    return probes


def reference_solve(identity: dict[str, Any]) -> tuple[dict[str, Any] | None, int]:
    """Run the reference procedure against PyBaMM: (the design it answers or None, simulations used)."""
    conditions = conditions_of(identity)
    probes = run_search(identity, lambda values: simulate(design_from(values, identity)[0], conditions),
                        identity["budget"])
    return solved(probes), len(probes)


class BatteryDesignInstructionGenerator(InstructionGenerator):
    """Draws conditions and an oracle until a draw passes the checks (bounded by `max_draws`)."""

    Config = BatteryDesignConfig
    name = "battery_design"

    def case_generator(self) -> dict[str, Any]:
        for _ in range(self.max_draws):
            identity = self._draw()
            if identity is not None:
                return identity
        raise RuntimeError(f"no solvable battery_design task in {self.max_draws} draws; raise the temperature "
                           "rise allowed (rise_min, rise_max), the capacity tolerance or the budget")

    def prompt_func(self, identity: dict[str, Any]) -> str:
        return render_prompt(identity)

    def _free(self) -> list[str]:
        chosen = {"positive_thickness_um", "positive_porosity"}
        chosen |= {"negative_thickness_um"} if self.design_negative else set()
        chosen |= {"positive_particle_radius_um"} if self.design_particle else set()
        chosen |= {"cooling"} if self.design_cooling else set()
        return [k for k in FREE_ORDER if k in chosen]

    def _draw(self) -> dict[str, Any] | None:
        """One candidate task; None when no candidate reaches the window or none is clean under the cap."""
        rng = self.rng
        free = self._free()
        fixed_all = {"negative_thickness_um": rng.choice(FIXED_NEGATIVES), "positive_particle_radius_um": FIXED_RADIUS,
                     "cooling": rng.choice(sorted(COOLING))}
        conditions = Conditions(round(rng.uniform(self.c_rate_min, self.c_rate_max), 1),
                                round(rng.uniform(self.ambient_min_c, self.ambient_max_c) * 2) / 2,
                                round(rng.uniform(self.heat_transfer_min, self.heat_transfer_max) * 2) / 2)
        top = self.capacity_max_ah
        if "negative_thickness_um" not in free:  # a fixed negative caps the capacity: stay under it
            top = min(top, 0.95 * capacities_ah(Design(100, 0.3, fixed_all["negative_thickness_um"], 5, "passive"))[1])
        capacity = rng.uniform(self.capacity_min_ah, max(self.capacity_min_ah, top))
        window = [round(capacity * (1 - self.capacity_tolerance), 2), round(capacity * (1 + self.capacity_tolerance), 2)]
        identity: dict[str, Any] = {
            "free": free,
            "fixed": {k: v for k, v in fixed_all.items() if k not in free},
            "conditions": {"c_rate": conditions.c_rate, "ambient_c": conditions.ambient_c,
                           "heat_transfer": conditions.heat_transfer},
            "show_heat_transfer": self.show_heat_transfer,
            "capacity_window_ah": window,
            "targets": {"specific_energy_wh_kg": math.inf, "max_temperature_c": math.inf},
            "budget": self.budget,
            "oracle": None,
        }
        pool = candidates(identity)
        if not pool:
            return None  # no candidate geometry reaches the capacity window
        results: dict[str, Discharge] = {}

        def run(values: dict[str, Any]) -> Discharge:
            key = repr(sorted(values.items()))
            if key not in results:
                results[key] = simulate(design_from(values, identity)[0], conditions)
            return results[key]

        # the cap binds: a drawn share (about 1) of the temperature rise of a middle candidate
        geometry, interval = pool[len(pool) // 2]
        middle = run(as_free(identity, {**geometry, "positive_porosity": round(sum(interval) / 2, 3)}))
        share = rng.uniform(self.rise_min, self.rise_max)
        identity["targets"]["max_temperature_c"] = round(
            conditions.ambient_c + share * (middle.peak_temperature_c - conditions.ambient_c), 1)
        # with an unreachable energy target the procedure explores its whole search: every probe under the cap
        probes = run_search(identity, run, self.budget)
        clean = [(values, run(values)) for values, r in probes
                 if r["temperature_target_met"] and r["end_reason"] == "voltage cut-off"
                 and r["capacity_ah"] >= USABLE_SHARE * r["nominal_capacity_ah"]]
        if not clean:
            return None
        values, best = max(clean, key=lambda p: p[1].specific_energy_wh_kg)
        identity["targets"]["specific_energy_wh_kg"] = math.floor(
            best.specific_energy_wh_kg * (1 - self.energy_margin) * 10) / 10
        identity["oracle"] = design_from(values, identity)[0].as_dict()
        # the procedure replays the same probes up to the first meeting the targets: within the budget, and not at
        # its first (the estimate's favourite) when `min_simulations` asks for a search
        final = run_search(identity, run, self.budget)
        if solved(final) is None or len(final) < self.min_simulations:
            return None
        return identity
