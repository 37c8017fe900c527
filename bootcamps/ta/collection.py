"""The ta collection: one bootcamp `ta/<game>` per TextArena game; the adapted ones are built on first use, every
other game is listed unavailable with the reason (bootcamps/ta/catalogue.py)."""
from __future__ import annotations

from bc_common.bootcamp import Bootcamp, Unavailable, include_known_issues, withheld

from .catalogue import UNAVAILABLE
from .known_issues import CONFORMANCE_N, KNOWN_ISSUES
from .not_adapted import NOT_ADAPTED

# bootcamps/ta/games/; listed here so `bc-gen --list` imports nothing
ADAPTED = (
    "countdown", "fifteen_puzzle", "frozen_lake", "guess_the_number", "lights_out", "mastermind", "nim", "rush_hour",
    "sokoban", "sudoku", "three_card_monte")


class Collection:
    """`names()` lists every TextArena game; `load(name)` is the manifest of ta/<name> (KeyError for an unknown
    one)."""

    def names(self) -> list[str]:
        return sorted({*ADAPTED, *UNAVAILABLE})

    def load(self, name: str) -> Bootcamp | Unavailable:
        if name in UNAVAILABLE:
            reason = NOT_ADAPTED.get(name) if UNAVAILABLE[name].startswith("not adapted yet") else None
            return Unavailable(description=f"TextArena {name} (not offered).", extra="", missing=[],
                               withheld=f"unavailable: {reason or UNAVAILABLE[name]}")
        if name not in ADAPTED:
            raise KeyError(name)
        from .games import GAMES  # imports textarena (seconds): only when a ta game is asked for
        from .generator import generator_class
        from .interaction import TAInteraction
        from .reward import TARewardCalculator
        from .seats import seats_class

        game = GAMES[name]
        description = game.about
        if name in KNOWN_ISSUES and not include_known_issues():
            return withheld(description, KNOWN_ISSUES[name])
        return Bootcamp(description=description, generator=generator_class(name), reward=TARewardCalculator,
                        policy=game.policy, interaction=TAInteraction, seats=seats_class(name),
                        groups=list(game.groups), baselines=list(game.baselines),
                        limits={"max_assistant_turns": game.max_moves, "max_user_turns": game.max_moves},
                        conformance={"n": CONFORMANCE_N, **game.conformance})


collection = Collection()
