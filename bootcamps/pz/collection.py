"""The pz collection: one bootcamp `pz/<puzzle>` per puzzle type; the offered ones are built on first use, the
others are listed unavailable with the measured reason (known_issues.py)."""
from __future__ import annotations

from bc_common.bootcamp import Bootcamp, Group, Unavailable

from .known_issues import CONFORMANCE, UNAVAILABLE
from .puzzles import PUZZLES


class Collection:
    """`names()` lists the puzzles; `load(name)` is the manifest of pz/<name> (KeyError for an unknown one)."""

    def names(self) -> list[str]:
        return sorted({*PUZZLES, *UNAVAILABLE})

    def load(self, name: str) -> Bootcamp | Unavailable:
        if name in UNAVAILABLE:
            return Unavailable(description=f"pencil puzzle {name} (not offered).", extra="", missing=[],
                               withheld=f"unavailable: {UNAVAILABLE[name]}")
        if name not in PUZZLES:
            raise KeyError(name)
        from .generator import generator_class
        from .policy import PzPolicy, baselines
        from .reward import PzRewardCalculator

        puzzle = PUZZLES[name]
        return Bootcamp(
            description=f"{puzzle.title}: fill the grid by the rules; exactly one solution (proved with PicoSAT).",
            generator=generator_class(name), reward=PzRewardCalculator, policy=PzPolicy,
            groups=[Group(level.name, dict(level.params), ratio=level.ratio) for level in puzzle.levels],
            baselines=baselines(name), conformance={**CONFORMANCE, **puzzle.conformance})


collection = Collection()
