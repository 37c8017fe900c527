"""Bootcamp `battery_design`: design a lithium-ion cell that meets a specific-energy target under a temperature
cap, with a free closed-form estimate and a budget of PyBaMM simulations (SPMe + lumped thermal, Chen2020)."""
from bc_common.bootcamp import Baseline, Bootcamp, Group, missing_extra

DESCRIPTION = ("Design a lithium-ion cell (electrode thicknesses, porosity, particle size, cooling) that reaches a "
               "specific-energy target under a temperature cap, checked with PyBaMM (SPMe + lumped thermal).")

bootcamp = missing_extra("battery", ["pybamm"], description=DESCRIPTION)
if bootcamp is None:
    from .baselines import EstimateOnlyPolicy, MiddlePolicy, OneSimulationPolicy
    from .generator import BatteryDesignInstructionGenerator
    from .policy import BatteryDesignPolicy
    from .reward import BatteryDesignRewardCalculator
    from .tools import EstimateTool, SimulateTool

    bootcamp = Bootcamp(
        description=DESCRIPTION,
        generator=BatteryDesignInstructionGenerator,
        reward=BatteryDesignRewardCalculator,
        policy=BatteryDesignPolicy,
        tools=[EstimateTool, SimulateTool],
        baselines=[Baseline("estimate_only", EstimateOnlyPolicy, "answers the closed-form estimate's favourite "
                            "design without simulating"),
                   Baseline("one_simulation", OneSimulationPolicy, "simulates the estimate's favourite once and "
                            "answers it whatever it reports"),
                   Baseline("middle", MiddlePolicy, "the middle of every range it may choose, no tools")],
        groups=[
            Group("easy", {}, ratio=0.4),
            Group("medium", {"design_negative": True, "design_particle": True}, ratio=0.3),
            Group("hard", {"design_negative": True, "design_particle": True, "design_cooling": True,
                           "show_heat_transfer": False}, ratio=0.3),
        ],
        # one estimate, up to `budget` simulations, then the answer
        limits={"max_assistant_turns": 18, "max_user_turns": 20},
        conformance={"n": 20},
    )
