"""Bootcamp `holdem`: heads-up no-limit hold'em decisions and whole hands on pokerkit, graded by EV."""
from bc_common.bootcamp import Baseline, Bootcamp, Group, missing_extra

bootcamp = missing_extra("poker", ["pokerkit"], description="Heads-up no-limit hold'em (pokerkit): EV-maximising "
                         "decisions and whole hands against a scripted villain; hand strength, equity, pot odds tools.")
if bootcamp is None:
    from .baselines import CheckFoldPolicy, PotOddsPolicy
    from .generator import HoldemInstructionGenerator
    from .interaction import HoldemInteraction
    from .policy import HoldemPolicy
    from .reward import HoldemRewardCalculator
    from .seats import HoldemMatch
    from .tools import EquityTool, HandStrengthTool, PotOddsTool

    bootcamp = Bootcamp(
        description="Heads-up no-limit hold'em (pokerkit): EV-maximising decisions and whole hands against a "
                    "scripted villain; hand strength, equity and pot odds tools.",
        generator=HoldemInstructionGenerator,
        reward=HoldemRewardCalculator,
        policy=HoldemPolicy,
        tools=[HandStrengthTool, EquityTool, PotOddsTool],
        interaction=HoldemInteraction,
        seats=HoldemMatch,  # bc-eval --opponent-model: one whole hand between two models
        baselines=[Baseline("check_fold", CheckFoldPolicy, "one equity call a decision, then check when free, else "
                            "fold (its EV and equity stated exactly)"),
                   Baseline("pot_odds", PotOddsPolicy, "one equity call a decision, never bets or raises: check "
                            "when free, else call when the equity covers the pot odds, else fold")],
        groups=[Group("river_turn", {"mode": "decision", "streets": "turn,river"}, ratio=0.3),
                Group("early", {"mode": "decision", "streets": "preflop,flop"}, ratio=0.3),
                Group("hand", {"mode": "hand"}, ratio=0.4)],
        # a hand has up to four decisions, each an `equity` call and an action
        limits={"max_assistant_turns": 12, "max_user_turns": 30},
    )
