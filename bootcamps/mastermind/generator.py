"""Mastermind tasks: a secret code of `pegs` colours from a palette of `colours`, a guess budget, and par."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bc_common.bootcamp import InstructionGenerator

from .codes import PALETTE

# Worst case of Knuth's strategy (knuth.py) per (pegs, colours), measured by playing every secret (the test
# suite replays the small ones). Only code spaces of 256+ codes: in smaller ones a fixed list of guesses wins
# too many games without reading the feedback.
PAR = {(4, 4): 4, (4, 5): 5, (4, 6): 5, (4, 7): 6, (5, 4): 5, (5, 5): 6, (3, 7): 6, (3, 8): 6}

MAX_BUDGET = 30
LIMITS = {"max_assistant_turns": MAX_BUDGET, "max_user_turns": MAX_BUDGET}  # one model turn per guess

PROMPT = """Let's play Mastermind. I have chosen a secret code of {pegs} pegs. Each peg is one of these {n} colours: \
{palette}. Colours may repeat.

Each turn, reply with one guess written as <guess>{example}</guess>, each ? a colour letter. I answer \
with black pegs (right colour in the right place) and white pegs (right colour in the wrong place). Only the \
last guess tag of a reply counts, and a reply without a valid guess wastes a turn.

You have {budget} guesses. Cracking the code within {par} guesses earns full credit; every guess after that \
earns less."""


@dataclass
class MastermindConfig:
    pegs: int = 4
    colours: int = 6  # how many palette colours are in play
    budget: int = 10  # guesses allowed; 0 reward past it

    def validate(self) -> None:
        if (self.pegs, self.colours) not in PAR:
            sizes = ", ".join(f"{p} pegs/{c} colours" for p, c in sorted(PAR))
            raise ValueError(f"unsupported size {self.pegs} pegs/{self.colours} colours; supported: {sizes}")
        par = PAR[(self.pegs, self.colours)]
        if not par <= self.budget <= MAX_BUDGET:
            raise ValueError(f"budget must be between par ({par}) and {MAX_BUDGET}")


class MastermindInstructionGenerator(InstructionGenerator):
    """Identity: {pegs, colours (the letters in play), secret, budget, par}. The colours in play are the palette's
    first `colours` letters: two tasks whose secrets differ only by renaming colours are one puzzle, and with one
    set of letters they are one identity too, which bc-gen's deduplication then redraws."""

    Config = MastermindConfig

    def case_generator(self) -> dict[str, Any]:
        colours = "".join(sorted(list(PALETTE)[:self.colours]))
        secret = "".join(self.rng.choice(colours) for _ in range(self.pegs))
        return {"pegs": self.pegs, "colours": colours, "secret": secret, "budget": self.budget,
                "par": PAR[(self.pegs, self.colours)]}

    def prompt_func(self, identity: dict[str, Any]) -> str:
        colours = identity["colours"]
        palette = ", ".join(f"{c} ({PALETTE[c]})" for c in colours)
        return PROMPT.format(pegs=identity["pegs"], n=len(colours), palette=palette, budget=identity["budget"],
                             par=identity["par"], example="?" * identity["pegs"])
