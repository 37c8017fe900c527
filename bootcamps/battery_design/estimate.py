"""The free closed-form estimate: capacity from loading, a resistance from Bruggeman transport, Butler-Volmer
kinetics and solid diffusion, and a lumped temperature rise. Cheap and rough: `simulate` is the truth.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .cell import (
    AREA,
    COOLING,
    NEGATIVE_POROSITY,
    SEPARATOR_POROSITY,
    SEPARATOR_UM,
    Conditions,
    Design,
    cell_mass,
    nominal_capacity_ah,
    positive_active_fraction,
)

KAPPA = 0.95  # S/m, Chen2020's electrolyte conductivity at 1 mol/L, 25 °C
D_ELECTROLYTE = 1.77e-10  # m2/s, Chen2020 at 1 mol/L
C_ELECTROLYTE = 1000.0  # mol/m3
T_PLUS = 0.2594  # Chen2020's transference number
D_POSITIVE = 4.0e-15  # m2/s, Chen2020's positive solid diffusivity
MEAN_OCV = 3.68  # V, Chen2020's open-circuit voltage averaged over the discharge window
COOLING_AREA = 0.00531  # m2, Chen2020's cell cooling surface
HEAT_CAPACITY = 1000.0  # J/kg/K, a cell's specific heat
EXCHANGE_CURRENT = 3.0  # A/m2 (interface), the order of Chen2020's exchange-current densities
RT_F = 0.025693  # V at 25 °C
# PyBaMM's lumped heat source also carries reversible (entropic) and concentration-overpotential heat that an
# ohmic I^2 R misses: fitted once to the SPMe over thicknesses 50-130 µm, porosities 0.25-0.5 and 1-3C
HEAT_FACTOR = 3.0


@dataclass(frozen=True)
class Estimate:
    capacity_ah: float
    resistance_ohm: float
    usable_fraction: float
    energy_wh: float
    specific_energy_wh_kg: float
    temperature_rise_k: float
    peak_temperature_c: float
    mass_kg: float


def resistance_ohm(d: Design) -> float:
    """Electrolyte (Bruggeman), charge transfer (linear Butler-Volmer) and positive solid diffusion, in series."""
    um = 1e-6
    eps_p = d.positive_porosity
    electrolyte = (d.positive_thickness_um * um / (3 * KAPPA * eps_p ** 1.5)
                   + SEPARATOR_UM * um / (KAPPA * SEPARATOR_POROSITY ** 1.5)
                   + d.negative_thickness_um * um / (3 * KAPPA * NEGATIVE_POROSITY ** 1.5)) / AREA
    radius = d.positive_particle_radius_um * um
    area_p = 3 * positive_active_fraction(eps_p, d.positive_particle_radius_um) / radius * d.positive_thickness_um * um
    charge_transfer = RT_F / (EXCHANGE_CURRENT * area_p * AREA)
    # a solid-diffusion overpotential grows with R^2 / D; expressed per amp of the cell's own capacity
    capacity = nominal_capacity_ah(d)
    diffusion = 0.08 * (radius ** 2 / (15 * D_POSITIVE)) / 3600 / max(capacity, 1e-9)
    return electrolyte + charge_transfer + diffusion


def usable_fraction(d: Design, current: float) -> float:
    """The share of capacity reachable before the electrolyte in the positive electrode runs dry: the limiting
    current of diffusion across the coating, 2 F D eps^1.5 c / ((1 - t+) L)."""
    um = 1e-6
    eps = d.positive_porosity
    limiting = 2 * 96485.33 * D_ELECTROLYTE * eps ** 1.5 * C_ELECTROLYTE / ((1 - T_PLUS) * d.positive_thickness_um
                                                                             * um) * AREA
    return max(0.0, min(1.0, 1.25 - 0.5 * current / limiting))


def estimate(d: Design, conditions: Conditions) -> Estimate:
    """The closed-form estimate of a discharge at the task's conditions."""
    capacity = nominal_capacity_ah(d)
    current = conditions.c_rate * capacity
    resistance = resistance_ohm(d)
    usable = usable_fraction(d, current)
    voltage = max(0.0, MEAN_OCV - current * resistance)
    energy = capacity * usable * voltage
    mass = cell_mass(d)
    conductance = (conditions.heat_transfer + COOLING[d.cooling][0]) * COOLING_AREA
    heat = HEAT_FACTOR * current ** 2 * resistance
    seconds = usable * 3600.0 / conditions.c_rate
    tau = mass * HEAT_CAPACITY / conductance
    rise = heat / conductance * (1 - math.exp(-seconds / tau))
    return Estimate(capacity_ah=capacity, resistance_ohm=resistance, usable_fraction=usable, energy_wh=energy,
                    specific_energy_wh_kg=energy / mass, temperature_rise_k=rise,
                    peak_temperature_c=conditions.ambient_c + rise, mass_kg=mass)



def estimate_report(d: Design, conditions: Conditions) -> dict[str, float]:
    """The estimate as the `estimate` tool reports it."""
    e = estimate(d, conditions)
    return {"capacity_ah": round(e.capacity_ah, 3), "resistance_mohm": round(e.resistance_ohm * 1000, 2),
            "usable_fraction": round(e.usable_fraction, 3), "energy_wh": round(e.energy_wh, 2),
            "specific_energy_wh_kg": round(e.specific_energy_wh_kg, 1),
            "peak_temperature_c": round(e.peak_temperature_c, 1), "mass_g": round(e.mass_kg * 1000, 2)}
