"""Bootcamp `mastermind`: crack a colour code from black/white peg feedback, within a guess budget."""
from bc_common.bootcamp import Bootcamp, Group

from .generator import LIMITS, MastermindInstructionGenerator
from .interaction import MastermindInteraction
from .policy import MastermindPolicy
from .reward import MastermindRewardCalculator

bootcamp = Bootcamp(
    description="Mastermind: crack a secret colour code from black/white peg feedback; fewer guesses score more.",
    generator=MastermindInstructionGenerator,
    reward=MastermindRewardCalculator,
    policy=MastermindPolicy,
    interaction=MastermindInteraction,
    groups=[
        Group("easy", {"pegs": 4, "colours": 5, "budget": 12}, ratio=0.3),
        Group("medium", {"pegs": 4, "colours": 6, "budget": 10}, ratio=0.4),
        Group("hard", {"pegs": 5, "colours": 5, "budget": 10}, ratio=0.3),
    ],
    limits=LIMITS,
)
