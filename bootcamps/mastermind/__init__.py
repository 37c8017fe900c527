"""Bootcamp `mastermind`: crack a colour code from black/white peg feedback, within a guess budget."""
from bc_common.bootcamp import Baseline, Bootcamp, Group

from .baselines import ColourSweep, RandomGuesser
from .codes import guesses_per_par
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
    # ordered by how tight full credit is: the guesses Knuth's strategy needs on average against par (its worst
    # case), 4.4 of 6, 4.1 of 5, 4.5 of 5; a bigger code space with a looser par is the easier task here
    groups=[
        Group("easy", {"pegs": 5, "colours": 5, "budget": 10}, ratio=0.3),
        Group("medium", {"pegs": 4, "colours": 5, "budget": 10}, ratio=0.4),
        Group("hard", {"pegs": 4, "colours": 6, "budget": 8}, ratio=0.3),
    ],
    limits=LIMITS,
    baselines=[Baseline("random", RandomGuesser, "a random code every turn, never reading the pegs"),
               Baseline("sweep", ColourSweep, "one colour on every peg, then the codes in order, pegs unread")],
    # every puzzle of a group, counted up to renaming colours (one palette per size): colours ** pegs. A
    # hidden-information game: the prompt states only the rules (the secret is what the model must find), so a
    # group shows one prompt
    conformance={"space_size": {"easy": 5**5, "medium": 5**4, "hard": 6**4},
                 "prompt_space": {"easy": 1, "medium": 1, "hard": 1}, "effort": guesses_per_par},
)
