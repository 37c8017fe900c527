"""The cell: a design, the written mass model, and the PyBaMM discharge (SPMe + lumped thermal on Chen2020).

Thicknesses and the particle radius change PyBaMM's mesh, so they lie on a 1 µm design grid and each geometry
is built once per process (an LRU of `CACHE_SIZE` built simulations). Porosity, the heat-transfer coefficient,
the ambient temperature and the current are PyBaMM input parameters: a new value costs one solve, not a build.
A discharge is a function of the design and the conditions alone, so each is solved once per process (an LRU of
`RESULTS_SIZE`): the generator's search, the reference replaying it through `simulate`, the baselines and the
verifier re-grading the answer ask for the same designs of a task.
"""
from __future__ import annotations

import math
import threading
from collections import OrderedDict
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import pybamm

# -- the design space ---------------------------------------------------------------------------------------
BOUNDS = {  # name -> (low, high); thicknesses and radius are integers (µm), porosity is a fraction
    "positive_thickness_um": (40, 140),
    "positive_porosity": (0.20, 0.50),
    "negative_thickness_um": (40, 160),
    "positive_particle_radius_um": (2, 10),
}
INTEGER_KEYS = ("positive_thickness_um", "negative_thickness_um", "positive_particle_radius_um")
POROSITY_DECIMALS = 3  # porosity is read to 0.001
COOLING = {  # choice -> (added heat-transfer coefficient W/m2/K, added mass kg per cell)
    "passive": (0.0, 0.0),
    "fins": (15.0, 0.003),
    "cold_plate": (45.0, 0.008),
}
DESIGN_KEYS = (*BOUNDS, "cooling")


@dataclass(frozen=True)
class Design:
    """One cell design on the design grid."""

    positive_thickness_um: int
    positive_porosity: float
    negative_thickness_um: int
    positive_particle_radius_um: int
    cooling: str

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def geometry(self) -> tuple[int, int, int]:
        """What the mesh depends on: the key of a built model."""
        return self.positive_thickness_um, self.negative_thickness_um, self.positive_particle_radius_um


def design_errors(values: dict[str, Any]) -> list[str]:
    """What is wrong with a full design dict (unknown keys, types, grid, bounds); empty when it is valid."""
    errors = [f"unknown design key {k!r}" for k in values if k not in DESIGN_KEYS]
    for key in DESIGN_KEYS:
        if key not in values:
            errors.append(f"{key} is missing")
            continue
        value = values[key]
        if key == "cooling":
            if value not in COOLING:
                errors.append(f"cooling must be one of {', '.join(COOLING)} (got {value!r})")
            continue
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
            errors.append(f"{key} must be a number (got {value!r})")
            continue
        lo, hi = BOUNDS[key]
        if key in INTEGER_KEYS and value != int(value):
            errors.append(f"{key} must be a whole number of micrometres (the 1 µm design grid; got {value})")
        elif not lo <= value <= hi:
            errors.append(f"{key} must be in [{lo}, {hi}] (got {value})")
    return errors


def make_design(values: dict[str, Any]) -> Design:
    """A Design from a checked dict (see `design_errors`); porosity is rounded to the 0.001 grid."""
    return Design(int(values["positive_thickness_um"]), round(float(values["positive_porosity"]), POROSITY_DECIMALS),
                  int(values["negative_thickness_um"]), int(values["positive_particle_radius_um"]),
                  str(values["cooling"]))


# -- the mass model (README: "Mass model") -------------------------------------------------------------------
AREA = 0.065 * 1.58  # m2: Chen2020's electrode height x width, kept for every design
DENSITY = {  # kg/m3
    "nmc811": 4750.0, "graphite_siox": 2260.0, "binder_carbon": 1800.0, "electrolyte": 1280.0,
    "polyethylene": 950.0, "aluminium": 2700.0, "copper": 8960.0,
}
SEPARATOR_UM, SEPARATOR_POROSITY = 12.0, 0.47  # Chen2020
AL_FOIL_UM, CU_FOIL_UM = 16.0, 12.0  # Chen2020; each foil is coated on both sides: half its mass per modelled area
NEGATIVE_POROSITY, NEGATIVE_ACTIVE = 0.25, 0.75  # Chen2020's negative coating, fixed
HOUSING_KG = 0.010  # can, tabs, header of a cylindrical cell


def inactive_share(radius_um: float) -> float:
    """Binder + conductive carbon as a share of the positive solid: finer particles (more surface) need more."""
    return 0.03 * 5.0 / radius_um


def positive_active_fraction(porosity: float, radius_um: float) -> float:
    return (1.0 - porosity) * (1.0 - inactive_share(radius_um))


def mass_breakdown(d: Design) -> dict[str, float]:
    """Mass (kg) of each part of the cell."""
    um = 1e-6
    eps_p, solid_p = d.positive_porosity, 1.0 - d.positive_porosity
    share = inactive_share(d.positive_particle_radius_um)
    rho_p = (solid_p * (1 - share) * DENSITY["nmc811"] + solid_p * share * DENSITY["binder_carbon"]
             + eps_p * DENSITY["electrolyte"])
    rho_n = (NEGATIVE_ACTIVE * DENSITY["graphite_siox"] + (1 - NEGATIVE_ACTIVE - NEGATIVE_POROSITY)
             * DENSITY["binder_carbon"] + NEGATIVE_POROSITY * DENSITY["electrolyte"])
    rho_s = (1 - SEPARATOR_POROSITY) * DENSITY["polyethylene"] + SEPARATOR_POROSITY * DENSITY["electrolyte"]
    return {
        "positive_coating": AREA * d.positive_thickness_um * um * rho_p,
        "negative_coating": AREA * d.negative_thickness_um * um * rho_n,
        "separator": AREA * SEPARATOR_UM * um * rho_s,
        "current_collectors": AREA / 2 * um * (AL_FOIL_UM * DENSITY["aluminium"] + CU_FOIL_UM * DENSITY["copper"]),
        "housing": HOUSING_KG,
        "cooling": COOLING[d.cooling][1],
    }


def cell_mass(d: Design) -> float:
    return sum(mass_breakdown(d).values())


# -- capacity from loading (closed form; sets the C-rate current) --------------------------------------------
FARADAY = 96485.33212
C_MAX_P, C_MAX_N = 63104.0, 33133.0  # mol/m3, Chen2020
# Chen2020's stoichiometry windows, charged -> discharged (Chen et al. 2020, table VII)
Y_CHARGED, Y_DISCHARGED = 17038.0 / C_MAX_P, 0.9084
X_CHARGED, X_DISCHARGED = 29866.0 / C_MAX_N, 0.0279


def capacities_ah(d: Design) -> tuple[float, float]:
    """(positive, negative) capacity in A h over Chen2020's stoichiometry windows."""
    um = 1e-6
    pos = (AREA * d.positive_thickness_um * um * positive_active_fraction(d.positive_porosity,
                                                                          d.positive_particle_radius_um)
           * C_MAX_P * (Y_DISCHARGED - Y_CHARGED) * FARADAY / 3600)
    neg = AREA * d.negative_thickness_um * um * NEGATIVE_ACTIVE * C_MAX_N * (X_CHARGED - X_DISCHARGED) * FARADAY / 3600
    return pos, neg


def nominal_capacity_ah(d: Design) -> float:
    """The capacity of the limiting electrode: the C-rate's reference (1C discharges it in an hour)."""
    return min(capacities_ah(d))


# -- the PyBaMM discharge ------------------------------------------------------------------------------------
INPUTS = ("Positive electrode porosity", "Positive electrode active material volume fraction",
          "Total heat transfer coefficient [W.m-2.K-1]", "Ambient temperature [K]", "Initial temperature [K]",
          "Current function [A]")
OUTPUTS = ("Voltage [V]", "Volume-averaged cell temperature [K]")


@dataclass(frozen=True)
class Conditions:
    """The task's environment: the discharge rate, the ambient temperature and the cell's heat transfer."""

    c_rate: float
    ambient_c: float
    heat_transfer: float  # W/m2/K before any cooling choice


@dataclass(frozen=True)
class Discharge:
    """What one simulated discharge measured."""

    energy_wh: float
    capacity_ah: float  # delivered
    nominal_capacity_ah: float  # the limiting electrode's, from loading
    specific_energy_wh_kg: float
    peak_temperature_c: float
    end_reason: str
    mass_kg: float
    current_a: float


def _build(geometry: tuple[int, int, int]) -> pybamm.Simulation:
    import pybamm  # here, not at import: listing the bootcamps would cost PyBaMM's 2 s import

    positive_um, negative_um, radius_um = geometry
    model = pybamm.lithium_ion.SPMe(options={"thermal": "lumped"})
    params = pybamm.ParameterValues("Chen2020")
    params.update({
        "Positive electrode thickness [m]": positive_um * 1e-6,
        "Negative electrode thickness [m]": negative_um * 1e-6,
        "Positive particle radius [m]": radius_um * 1e-6,
        **{name: "[input]" for name in INPUTS},
    })
    # only the variables a discharge report reads are computed at every step (about 2x faster to read back)
    solver = pybamm.IDAKLUSolver(atol=1e-6, rtol=1e-6, output_variables=list(OUTPUTS))
    sim = pybamm.Simulation(model, parameter_values=params, solver=solver)
    sim.build()
    return sim


_local = threading.local()  # one cache per thread: a built solver is not shared between threads
CACHE_SIZE = 256


def built(geometry: tuple[int, int, int]) -> pybamm.Simulation:
    """The built simulation of one geometry, from this thread's LRU cache."""
    cache: OrderedDict | None = getattr(_local, "sims", None)
    if cache is None:
        cache = _local.sims = OrderedDict()
    sim = cache.get(geometry)
    if sim is None:
        sim = cache[geometry] = _build(geometry)
        if len(cache) > CACHE_SIZE:
            cache.popitem(last=False)
    else:
        cache.move_to_end(geometry)
    return sim


def _end_reason(termination: str) -> str:
    if "Minimum voltage" in termination:
        return "voltage cut-off"
    if termination == "final time":
        return "time limit"
    return termination.removeprefix("event: ")


_results: OrderedDict[tuple[Design, Conditions], Discharge] = OrderedDict()
_results_lock = threading.Lock()
RESULTS_SIZE = 16384  # discharges kept (under a kilobyte each with the key)


def simulate(d: Design, conditions: Conditions) -> Discharge:
    """A constant-current discharge at the task's C-rate (of the design's own capacity) to 2.5 V; solved once per
    process for each (design, conditions)."""
    key = (d, conditions)
    with _results_lock:
        found = _results.get(key)
        if found is not None:
            _results.move_to_end(key)
            return found
    result = _discharge(d, conditions)
    with _results_lock:
        _results[key] = result
        if len(_results) > RESULTS_SIZE:
            _results.popitem(last=False)
    return result


def _discharge(d: Design, conditions: Conditions) -> Discharge:
    capacity = nominal_capacity_ah(d)
    current = conditions.c_rate * capacity
    ambient = conditions.ambient_c + 273.15
    inputs = {
        "Positive electrode porosity": d.positive_porosity,
        "Positive electrode active material volume fraction": positive_active_fraction(
            d.positive_porosity, d.positive_particle_radius_um),
        "Total heat transfer coefficient [W.m-2.K-1]": conditions.heat_transfer + COOLING[d.cooling][0],
        "Ambient temperature [K]": ambient, "Initial temperature [K]": ambient, "Current function [A]": current,
    }
    solution = built(d.geometry).solve([0.0, 1.25 * 3600.0 / conditions.c_rate], inputs=inputs)
    t = solution["Time [s]"].entries
    voltage = solution["Voltage [V]"].entries
    energy = float(np.trapezoid(voltage, t)) * current / 3600.0
    peak = float(solution["Volume-averaged cell temperature [K]"].entries.max()) - 273.15
    mass = cell_mass(d)
    return Discharge(energy_wh=energy, capacity_ah=current * float(t[-1]) / 3600.0, nominal_capacity_ah=capacity,
                     specific_energy_wh_kg=energy / mass, peak_temperature_c=peak,
                     end_reason=_end_reason(solution.termination), mass_kg=mass, current_a=current)
