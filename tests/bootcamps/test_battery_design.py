"""battery_design beyond the conformance suite: the PyBaMM wiring and mass model, the cheats that must fail (a
design outside the bounds, one meeting the energy target but not the temperature cap, simulating past the budget),
the tools, generation and the reference policy."""
from __future__ import annotations

import asyncio
import copy
import math
import subprocess
import sys
from typing import Any

import jsonschema
import orjson
import pytest

pytest.importorskip("pybamm")

from bc_common.errors import ToolError  # noqa: E402
from bc_common.tasks import TaskSet  # noqa: E402
from bootcamps.battery_design.cell import (  # noqa: E402
    Conditions,
    Design,
    built,
    capacities_ah,
    cell_mass,
    mass_breakdown,
    nominal_capacity_ah,
    simulate,
)
from bootcamps.battery_design.estimate import estimate  # noqa: E402
from bootcamps.battery_design.generator import BatteryDesignInstructionGenerator, reference_solve  # noqa: E402
from bootcamps.battery_design.policy import BatteryDesignPolicy, answer_text  # noqa: E402
from bootcamps.battery_design.reward import BatteryDesignRewardCalculator  # noqa: E402
from bootcamps.battery_design.search import porosity_interval  # noqa: E402
from bootcamps.battery_design.tools import EstimateTool, SimulateTool  # noqa: E402

VERIFY = BatteryDesignRewardCalculator.verify_score
BASE = Design(80, 0.35, 100, 5, "passive")


def answer(design: dict[str, Any]) -> str:
    return answer_text(design)


def task(**over: Any) -> dict[str, Any]:
    """A hand-made easy task around BASE at 1C, 25 °C, h = 10, with targets set from BASE's own discharge."""
    result = simulate(BASE, Conditions(1.0, 25.0, 10.0))
    capacity = nominal_capacity_ah(BASE)
    identity = {
        "free": ["positive_thickness_um", "positive_porosity"],
        "fixed": {"negative_thickness_um": 100, "positive_particle_radius_um": 5, "cooling": "passive"},
        "conditions": {"c_rate": 1.0, "ambient_c": 25.0, "heat_transfer": 10.0},
        "show_heat_transfer": True,
        "capacity_window_ah": [round(capacity * 0.95, 2), round(capacity * 1.05, 2)],
        "targets": {"specific_energy_wh_kg": math.floor(result.specific_energy_wh_kg * 0.99 * 10) / 10,
                    "max_temperature_c": math.ceil((result.peak_temperature_c + 0.5) * 10) / 10},
        "budget": 3,
        "oracle": BASE.as_dict(),
    }
    identity.update(over)
    return identity


def _call(tool_cls: type, identity: dict[str, Any], args: dict[str, Any], tool: Any = None,
          instance: str | None = None) -> tuple[Any, Any, str]:
    tool = tool or tool_cls()

    async def go() -> tuple[Any, str]:
        nonlocal instance
        if instance is None:
            instance = await tool.create(identity=identity)
        text, reward, _metrics = await tool.execute(instance, args)
        assert reward == 0.0  # calling a tool earns nothing
        return orjson.loads(text), instance

    result, instance = asyncio.run(go())
    return result, tool, instance


# -- PyBaMM wiring and the mass model -----------------------------------------------------------------------------
def test_a_discharge_is_pybamms_spme_with_lumped_thermal_on_chen2020() -> None:
    sim = built(BASE.geometry)
    assert type(sim.model).__name__ == "SPMe" and sim.model.options["thermal"] == "lumped"
    assert sim.parameter_values["Positive electrode thickness [m]"] == pytest.approx(80e-6)
    assert sim.parameter_values["Negative particle radius [m]"] == pytest.approx(5.86e-6)  # Chen2020's
    result = simulate(BASE, Conditions(1.0, 25.0, 10.0))
    assert result.end_reason == "voltage cut-off"
    assert 0.9 * result.nominal_capacity_ah < result.capacity_ah < 1.15 * result.nominal_capacity_ah
    assert 3.3 < result.energy_wh / result.capacity_ah < 3.9  # the mean voltage of NMC811 / graphite
    assert 25.0 < result.peak_temperature_c < 80.0


def test_porosity_and_heat_transfer_are_inputs_of_one_built_model() -> None:
    sim = built(BASE.geometry)
    slow = simulate(BASE, Conditions(1.0, 25.0, 5.0))
    cooled = simulate(BASE, Conditions(1.0, 25.0, 50.0))
    porous = simulate(Design(80, 0.45, 100, 5, "passive"), Conditions(1.0, 25.0, 5.0))
    assert built(BASE.geometry) is sim  # one build served all three
    assert cooled.peak_temperature_c < slow.peak_temperature_c - 5
    assert porous.capacity_ah < slow.capacity_ah  # less active material
    assert built((81, 100, 5)) is not sim  # a thickness is a new geometry


def test_a_discharge_is_solved_once_per_design_and_conditions_and_a_new_solve_gives_the_same() -> None:
    from bootcamps.battery_design.cell import _discharge

    conditions = Conditions(1.0, 25.0, 10.0)
    first = simulate(BASE, conditions)
    assert simulate(Design(80, 0.35, 100, 5, "passive"), Conditions(1.0, 25.0, 10.0)) is first  # equal keys: kept
    assert _discharge(BASE, conditions) == first  # a fresh solve, after others, gives the kept numbers exactly
    assert simulate(BASE, Conditions(1.0, 25.0, 10.5)) != first


def test_more_cooling_costs_mass_and_lowers_the_peak() -> None:
    conditions = Conditions(2.0, 25.0, 10.0)
    plain, fins = simulate(BASE, conditions), simulate(Design(80, 0.35, 100, 5, "fins"), conditions)
    assert fins.peak_temperature_c < plain.peak_temperature_c
    assert fins.mass_kg == pytest.approx(plain.mass_kg + 0.003)


def test_the_mass_model_adds_up_the_written_parts() -> None:
    parts = mass_breakdown(BASE)
    assert set(parts) == {"positive_coating", "negative_coating", "separator", "current_collectors", "housing",
                          "cooling"}
    area = 0.065 * 1.58
    solid = 0.65 * (0.97 * 4750 + 0.03 * 1800) + 0.35 * 1280
    assert parts["positive_coating"] == pytest.approx(area * 80e-6 * solid)
    assert parts["current_collectors"] == pytest.approx(area / 2 * (16e-6 * 2700 + 12e-6 * 8960))
    assert cell_mass(BASE) == pytest.approx(sum(parts.values()))
    assert 0.05 < cell_mass(BASE) < 0.09  # a 21700-class cell


def test_capacity_from_loading_limits_at_the_smaller_electrode() -> None:
    pos, neg = capacities_ah(BASE)
    assert pos == pytest.approx(0.1027 * 80e-6 * 0.65 * 0.97 * 63104 * (0.9084 - 17038 / 63104) * 26.8015, rel=1e-3)
    assert nominal_capacity_ah(BASE) == min(pos, neg)
    assert nominal_capacity_ah(Design(140, 0.2, 40, 5, "passive")) == capacities_ah(
        Design(140, 0.2, 40, 5, "passive"))[1]


def test_the_estimate_is_closed_form_and_rough_but_ordered() -> None:
    conditions = Conditions(1.0, 25.0, 10.0)
    thin, thick = estimate(Design(50, 0.35, 100, 5, "passive"), conditions), estimate(BASE, conditions)
    assert thick.capacity_ah > thin.capacity_ah and thick.temperature_rise_k > thin.temperature_rise_k
    simulated = simulate(BASE, conditions)
    assert thick.specific_energy_wh_kg == pytest.approx(simulated.specific_energy_wh_kg, rel=0.25)


# -- the cheats that must fail --------------------------------------------------------------------------------------
def test_the_reference_design_scores_one() -> None:
    identity = task()
    assert VERIFY(answer({"positive_thickness_um": 80, "positive_porosity": 0.35}), identity) == 1.0
    # fixed keys may be repeated with their value
    assert VERIFY(answer({**BASE.as_dict()}), identity) == 1.0


@pytest.mark.parametrize("bad", [
    {"positive_thickness_um": 141, "positive_porosity": 0.35},  # above the bound
    {"positive_thickness_um": 39, "positive_porosity": 0.35},  # below
    {"positive_thickness_um": 80, "positive_porosity": 0.55},
    {"positive_thickness_um": 80.5, "positive_porosity": 0.35},  # off the 1 µm grid
    {"positive_thickness_um": 80, "positive_porosity": 0.35, "negative_thickness_um": 120},  # a fixed key changed
    {"positive_thickness_um": 80, "positive_porosity": 0.35, "cooling": "cold_plate"},
    {"positive_thickness_um": 80, "positive_porosity": 0.35, "electrolyte": "magic"},  # unknown key
    {"positive_thickness_um": 80},  # missing key
    {"positive_thickness_um": "80", "positive_porosity": 0.35},
    {"positive_thickness_um": 80, "positive_porosity": True},
])
def test_a_design_outside_the_bounds_or_the_task_scores_zero(bad: dict[str, Any]) -> None:
    assert VERIFY(answer(bad), task()) == 0.0


def test_a_design_outside_the_capacity_window_scores_zero_even_if_it_would_meet_the_targets() -> None:
    identity = task()
    thin = {"positive_thickness_um": 60, "positive_porosity": 0.35}  # cooler, but a smaller cell than specified
    loose = copy.deepcopy(identity)
    loose["capacity_window_ah"] = [1.0, 8.0]
    loose["targets"]["specific_energy_wh_kg"] = 100.0
    assert VERIFY(answer(thin), loose) == 1.0
    assert VERIFY(answer(thin), identity) == 0.0


def test_partial_credit_only_for_a_near_miss_under_the_cap() -> None:
    identity = task()
    design = answer({"positive_thickness_um": 80, "positive_porosity": 0.35})
    result = simulate(BASE, Conditions(1.0, 25.0, 10.0))
    hot = copy.deepcopy(identity)
    hot["targets"]["max_temperature_c"] = round(result.peak_temperature_c - 1.0, 1)
    assert result.specific_energy_wh_kg >= hot["targets"]["specific_energy_wh_kg"]  # energy alone is met
    assert VERIFY(design, hot) == 0.0  # the cap is a hard limit
    near = copy.deepcopy(identity)  # 1% short of the energy target, under the cap: half of the last 2%
    near["targets"]["specific_energy_wh_kg"] = round(result.specific_energy_wh_kg / 0.99, 1)
    assert 0.2 < VERIFY(design, near) < 0.3
    far = copy.deepcopy(identity)  # 5% short: what trusting the closed-form estimate gives; no credit
    far["targets"]["specific_energy_wh_kg"] = round(result.specific_energy_wh_kg / 0.95, 1)
    assert VERIFY(design, far) == 0.0


def test_malformed_answers_score_zero() -> None:
    identity = task()
    for text in ["", "80 µm and 0.35", "<answer>not json</answer>", "<answer>[80, 0.35]</answer>",
                 '<answer>{"positive_thickness_um": 1e999, "positive_porosity": 0.35}</answer>',
                 '<answer>{"positive_thickness_um": NaN, "positive_porosity": 0.35}</answer>',
                 "<answer>" + "{" * 10_000 + "</answer>"]:
        assert VERIFY(text, identity) == 0.0, text


# -- the tools ---------------------------------------------------------------------------------------------------
def test_simulate_reports_the_discharge_and_spends_the_budget_then_refuses() -> None:
    identity = task()
    design = {"design": {"positive_thickness_um": 80, "positive_porosity": 0.35}}
    first, tool, instance = _call(SimulateTool, identity, design)
    assert first["energy_target_met"] and first["temperature_target_met"] and first["simulations_left"] == 2
    assert first["end_reason"] == "voltage cut-off" and first["peak_temperature_c"] > 25.0
    for left in (1, 0):
        again, _, _ = _call(SimulateTool, identity, design, tool, instance)
        assert again["simulations_left"] == left
    with pytest.raises(ToolError, match="budget_exhausted.*nothing was simulated"):
        _call(SimulateTool, identity, design, tool, instance)
    assert tool.state(instance)["simulations"] == 3  # the refused call changed nothing
    # the budget is per trajectory: another instance starts afresh
    fresh, _, _ = _call(SimulateTool, identity, design, tool)
    assert fresh["simulations_left"] == 2


def test_simulate_refuses_invalid_designs_without_spending_budget() -> None:
    identity = task()
    tool = SimulateTool()
    instance = asyncio.run(tool.create(identity=identity))
    for bad, match in [({"positive_thickness_um": 200, "positive_porosity": 0.35}, "must be in"),
                       ({"positive_thickness_um": 50, "positive_porosity": 0.35}, "outside the window"),
                       ({"positive_thickness_um": 80}, "missing")]:
        with pytest.raises(ToolError, match=match):
            asyncio.run(tool.execute(instance, {"design": bad}))
    assert tool.state(instance)["simulations"] == 0


def test_estimate_is_free_and_takes_one_or_many_designs() -> None:
    identity = task()
    one, tool, instance = _call(EstimateTool, identity, {"design": {"positive_thickness_um": 80,
                                                                    "positive_porosity": 0.35}})
    assert one["capacity_ah"] == pytest.approx(nominal_capacity_ah(BASE), abs=1e-3) and one["mass_g"] > 50
    many, _, _ = _call(EstimateTool, identity, {"designs": [{"positive_thickness_um": t, "positive_porosity": 0.35}
                                                            for t in (50, 80, 120)]}, tool, instance)
    assert [e["capacity_ah"] for e in many["estimates"]] == sorted(e["capacity_ah"] for e in many["estimates"])
    with pytest.raises(ToolError, match="exactly one"):
        _call(EstimateTool, identity, {}, tool, instance)


def test_hidden_conditions_live_in_the_tool_state_not_in_the_arguments() -> None:
    identity = task(show_heat_transfer=False)
    cooled = copy.deepcopy(identity)
    cooled["conditions"]["heat_transfer"] = 40.0
    design = {"design": {"positive_thickness_um": 80, "positive_porosity": 0.35}}
    plain, _, _ = _call(SimulateTool, identity, design)
    cool, _, _ = _call(SimulateTool, cooled, design)
    assert cool["peak_temperature_c"] < plain["peak_temperature_c"]  # same arguments, the state decides
    schema = SimulateTool.tool_schema["function"]["parameters"]["properties"]["design"]["properties"]
    assert not {"heat_transfer", "c_rate", "ambient_c", "budget"} & set(schema)


# -- generation and the reference policy ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def rows() -> list[dict[str, Any]]:
    ts = TaskSet("battery_design", seed=5)
    return [ts[i] for i in range(6)]  # easy, medium and hard interleave


def test_generated_tasks_are_deterministic_valid_and_solvable(rows: list[dict[str, Any]]) -> None:
    again = TaskSet("battery_design", seed=5)
    assert again[0] == rows[0] and again[5] == rows[5]
    kinds = set()
    for row in rows:
        identity = row["reward_model"]["ground_truth"]
        jsonschema.validate(identity, BatteryDesignRewardCalculator.identity_schema)
        kinds.add(len(identity["free"]))
        oracle = {k: identity["oracle"][k] for k in identity["free"]}
        assert VERIFY(answer(oracle), identity) == 1.0  # the oracle meets its own targets
        found, used = reference_solve(identity)
        assert found is not None and used <= identity["budget"]
        assert VERIFY(answer(found), identity) == 1.0
        lo, hi = identity["capacity_window_ah"]
        assert lo <= nominal_capacity_ah(Design(**identity["oracle"])) <= hi
    assert kinds == {2, 4, 5}


def test_baselines_that_do_not_search_score_low(rows: list[dict[str, Any]]) -> None:
    from bc_common.builtin_model import baseline_trajectory
    from bc_common.environment import Environments

    envs = Environments()
    for name in ("estimate_only", "one_simulation", "middle"):
        async def run_all(name: str = name) -> list[dict[str, Any]]:
            return [await baseline_trajectory(r, envs.get(r["data_source"]), name) for r in rows]

        scores = [float(t["score"] or 0.0) for t in asyncio.run(run_all())]
        assert sum(scores) / len(scores) <= 0.25 and max(scores) < 1.0, (name, scores)


def test_a_row_is_the_same_bytes_in_a_fresh_process(rows: list[dict[str, Any]]) -> None:
    # PyBaMM's solves must not depend on which geometries a process built before (sharding, -j N)
    code = ("import orjson, sys\nfrom bc_common.tasks import TaskSet\n"
            "sys.stdout.buffer.write(orjson.dumps(TaskSet('battery_design', seed=5)[4]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert orjson.loads(done.stdout) == rows[4]


def test_the_oracle_and_hidden_conditions_stay_out_of_the_prompt(rows: list[dict[str, Any]]) -> None:
    for row in rows:
        identity = row["reward_model"]["ground_truth"]
        prompt = row["prompt"][0]["content"]
        assert f"{identity['targets']['specific_energy_wh_kg']:g} Wh/kg" in prompt
        assert f'"positive_porosity": {identity["oracle"]["positive_porosity"]}' not in prompt
        shown = f"{identity['conditions']['heat_transfer']:g} W/m2/K to the ambient" in prompt
        assert shown is identity["show_heat_transfer"]


def test_config_bounds_are_checked() -> None:
    for bad in ({"c_rate_min": 4.0, "c_rate_max": 1.0}, {"budget": 0}, {"energy_margin": 0.5},
                {"capacity_tolerance": 0.0}, {"rise_min": 2.0, "rise_max": 1.0}, {"max_draws": 0}):
        with pytest.raises(Exception, match="must|need"):
            BatteryDesignInstructionGenerator(**bad)


def test_the_policy_searches_through_the_tools_and_answers_a_simulated_design(rows: list[dict[str, Any]]) -> None:
    row = rows[0]
    identity = row["reward_model"]["ground_truth"]
    policy = BatteryDesignPolicy(identity, tools=["estimate", "simulate"])
    messages = list(row["prompt"])
    first = policy.respond(messages)
    assert first["tool_calls"][0]["function"]["name"] == "estimate"
    estimate_tool, simulate_tool = EstimateTool(), SimulateTool()
    instances = {t: asyncio.run(t.create(identity=identity)) for t in (estimate_tool, simulate_tool)}
    tools = {"estimate": estimate_tool, "simulate": simulate_tool}
    reply = first
    for _ in range(identity["budget"] + 2):
        if not reply.get("tool_calls"):
            break
        messages.append(reply)
        for call in reply["tool_calls"]:
            tool = tools[call["function"]["name"]]
            text, _, _ = asyncio.run(tool.execute(instances[tool], orjson.loads(call["function"]["arguments"])))
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": text})
        reply = policy.respond(messages)
    assert "tool_calls" not in reply and VERIFY(reply["content"], identity) == 1.0
    simulated = [orjson.loads(c["function"]["arguments"])["design"] for m in messages if m["role"] == "assistant"
                 for c in m.get("tool_calls") or [] if c["function"]["name"] == "simulate"]
    assert simulated and orjson.loads(reply["content"].split("<answer>")[1].split("</answer>")[0]) in simulated
    wrong = policy.respond(messages, wrong=True)
    assert VERIFY(wrong["content"], identity) < 1.0


def test_the_porosity_interval_is_the_capacity_window() -> None:
    geometry = {"positive_thickness_um": 80, "negative_thickness_um": 100, "positive_particle_radius_um": 5,
                "cooling": "passive"}
    window = [4.6, 5.0]
    lo, hi = porosity_interval(geometry, window)
    assert window[0] <= nominal_capacity_ah(Design(**geometry, positive_porosity=lo)) <= window[1]
    assert nominal_capacity_ah(Design(**geometry, positive_porosity=round(hi + 0.001, 3))) < window[0]
    assert nominal_capacity_ah(Design(**geometry, positive_porosity=round(lo - 0.001, 3))) > window[1]
