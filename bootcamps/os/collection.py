"""The os collection: one bootcamp `os/<game>` per OpenSpiel game the adapter knows; the offered ones are built on
first use, every other one is listed unavailable with the measured reason (known_issues.py)."""
from __future__ import annotations

from bc_common.bootcamp import Baseline, Bootcamp, Group, Unavailable

from .games import GAMES
from .known_issues import CONFORMANCE_N, DISTINCT_N, OFFERED, UNAVAILABLE


class Collection:
    """`names()` lists the known games; `load(name)` is the manifest of os/<name> (KeyError for an unknown one)."""

    def names(self) -> list[str]:
        return sorted({*OFFERED, *UNAVAILABLE})

    def load(self, name: str) -> Bootcamp | Unavailable:
        if name in UNAVAILABLE:
            return Unavailable(description=f"OpenSpiel {name} (not offered).", extra="", missing=[],
                               withheld=f"unavailable: {UNAVAILABLE[name]}")
        if name not in OFFERED:
            raise KeyError(name)
        from .generator import generator_class
        from .interaction import OSInteraction
        from .policy import FirstMove, ForcedWin, RandomMove
        from .reward import OSRewardCalculator

        game = GAMES[name]
        depth = max(b.depth for b in game.boards)
        return Bootcamp(
            description=f"OpenSpiel {game.title}: force a win from a drawn position against a perfect defender.",
            generator=generator_class(name), reward=OSRewardCalculator, policy=ForcedWin, interaction=OSInteraction,
            groups=[Group(b.group, {"board": b.group}, ratio=round(1 / len(game.boards), 4)) for b in game.boards],
            baselines=[Baseline("random", RandomMove, "a random legal move"),
                       Baseline("first_legal", FirstMove, "the first legal move as listed")],
            limits={"max_assistant_turns": depth + 1, "max_user_turns": depth + 1},
            conformance={"n": CONFORMANCE_N, "distinct_n": DISTINCT_N})


collection = Collection()
