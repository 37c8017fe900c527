"""The task as the model reads it: the cell, the conditions, the targets, what it may choose, the tools, the
budget and the answer format. The oracle design is never shown."""
from __future__ import annotations

from typing import Any

from .cell import BOUNDS, COOLING

DESCRIPTIONS = {
    "positive_thickness_um": "positive electrode (NMC811) coating thickness, whole micrometres in [{0}, {1}]",
    "positive_porosity": "positive electrode porosity, a fraction in [{0}, {1}] (read to 0.001)",
    "negative_thickness_um": "negative electrode (graphite-SiOx) coating thickness, whole micrometres in [{0}, {1}]",
    "positive_particle_radius_um": "positive particle radius, whole micrometres in [{0}, {1}] (finer particles "
                                   "need more binder and carbon: less active material)",
    "cooling": "cooling, one of " + ", ".join(f'"{k}" (+{h:g} W/m2/K, +{m * 1000:g} g)'
                                              for k, (h, m) in COOLING.items()),
}
FIXED = {
    "negative_thickness_um": "negative electrode thickness {} µm",
    "positive_particle_radius_um": "positive particle radius {} µm",
    "cooling": "cooling \"{}\"",
}


def _choice(key: str) -> str:
    return DESCRIPTIONS[key].format(*BOUNDS.get(key, ()))


def render_prompt(identity: dict[str, Any]) -> str:
    c, t, w = identity["conditions"], identity["targets"], identity["capacity_window_ah"]
    heat = (f"a heat-transfer coefficient of {c['heat_transfer']:g} W/m2/K to the ambient air"
            if identity["show_heat_transfer"] else
            "a heat-transfer coefficient to the ambient air that is not disclosed (the tools apply it)")
    choices = "\n".join(f"- `{k}`: {_choice(k)}" for k in identity["free"])
    fixed = ", ".join(FIXED[k].format(v) for k, v in identity["fixed"].items()) or "nothing"
    example = {"positive_thickness_um": 80, "positive_porosity": 0.35, "negative_thickness_um": 100,
               "positive_particle_radius_um": 5, "cooling": "passive"}
    example_text = ", ".join(f'"{k}": {example[k]!r}'.replace("'", '"') for k in identity["free"])
    return (
        "Design a lithium-ion cell (NMC811 / graphite-SiOx, the LG M50 chemistry of Chen et al. 2020, "
        "electrode area 0.1027 m2) for a constant-current discharge.\n\n"
        f"Conditions: a {c['c_rate']:g}C discharge (of the design's own capacity) from full charge to 2.5 V, "
        f"starting at the ambient temperature of {c['ambient_c']:g} °C, with {heat}.\n"
        f"Targets: specific energy of at least {t['specific_energy_wh_kg']:g} Wh/kg (discharge energy over the "
        f"whole cell's mass) and a peak cell temperature of at most {t['max_temperature_c']:g} °C.\n\n"
        f"Capacity spec: the design's nominal capacity must lie in [{w[0]:g}, {w[1]:g}] A h. It is the closed-form "
        "capacity of the limiting electrode: positive = A L_p (1 - eps_p)(1 - 0.15/r_p[µm]) 63104 mol/m3 x 0.6384 F, "
        "negative = A L_n 0.75 x 33133 mol/m3 x 0.8735 F, with A = 0.1027 m2 and F = 26.80 A h/mol "
        "(`estimate` reports it).\n\n"
        f"You choose:\n{choices}\nFixed in this task: {fixed}.\n\n"
        "Tools: `estimate` (free, closed-form, rough: capacity from loading, a resistance, a lumped temperature "
        "rise; many designs per call) and `simulate` (the PyBaMM SPMe + lumped thermal discharge the answer is "
        f"graded with; you have {identity['budget']} simulations, calls past the budget do nothing).\n\n"
        "Answer with the design as one JSON object of the keys you choose inside <answer></answer>, e.g.\n"
        f"<answer>{{{example_text}}}</answer>\n"
        "The design is graded by re-simulating it: it scores 1 only if it lies in the bounds and the capacity "
        "window and meets both targets."
    )
