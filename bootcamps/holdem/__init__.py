"""Bootcamp `holdem`: heads-up no-limit hold'em decisions and whole hands on pokerkit, graded by EV."""
from bc_common.bootcamp import Bootcamp, Group, missing_extra

bootcamp = missing_extra("poker", ["pokerkit"], description="Heads-up no-limit hold'em (pokerkit): EV-maximising "
                         "decisions and whole hands against a scripted villain; hand strength, equity, pot odds tools.")
if bootcamp is None:
    from .generator import HoldemInstructionGenerator
    from .interaction import HoldemInteraction
    from .policy import HoldemPolicy
    from .reward import HoldemRewardCalculator
    from .tools import EquityTool, HandStrengthTool, PotOddsTool

    bootcamp = Bootcamp(
        description="Heads-up no-limit hold'em (pokerkit): EV-maximising decisions and whole hands against a "
                    "scripted villain; hand strength, equity and pot odds tools.",
        generator=HoldemInstructionGenerator,
        reward=HoldemRewardCalculator,
        policy=HoldemPolicy,
        tools=[HandStrengthTool, EquityTool, PotOddsTool],
        interaction=HoldemInteraction,
        groups=[Group("river_turn", {"mode": "decision", "streets": "turn,river"}, ratio=0.3),
                Group("early", {"mode": "decision", "streets": "preflop,flop"}, ratio=0.3),
                Group("hand", {"mode": "hand"}, ratio=0.4)],
        # a hand has up to four decisions, each an `equity` call and an action
        limits={"max_assistant_turns": 12, "max_user_turns": 30},
    )
