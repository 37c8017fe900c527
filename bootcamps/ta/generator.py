"""One InstructionGenerator per adapted game: `NimInstructionGenerator` is ta/nim's.

The classes are made on first use (a module `__getattr__`), so `bootcamps.ta.generator.NimInstructionGenerator`
is an importable dotted path, as `bc-gen -j` workers and seed-format YAML configs need.
"""
from __future__ import annotations

import functools
from typing import Any, ClassVar

from bc_common.bootcamp import InstructionGenerator
from bc_common.errors import ConfigError

from .game import Drawn
from .games import GAMES, class_name
from .play import replay

SEED_SPACE = 2**31  # TextArena's reset seed, drawn per row
ATTEMPTS = 16


class TAInstructionGenerator(InstructionGenerator):
    """Draws a game: TextArena's reset seed and the game's keyword arguments, from the row's rng."""

    game_name: ClassVar[str] = ""

    def case_generator(self) -> dict[str, Any]:
        game = GAMES[self.game_name]
        for _ in range(ATTEMPTS):
            seed = self.rng.randrange(SEED_SPACE)
            drawn = game.draw(self.rng, self.config, seed)
            if drawn is None:  # this seed's game has nothing to play (a scramble that undid itself): redraw
                continue
            kwargs = drawn.kwargs if isinstance(drawn, Drawn) else drawn
            task = {"game": game.name, "env_id": game.env_id, "players": game.players, "kwargs": kwargs,
                    "seed": seed}
            if isinstance(drawn, Drawn):
                task["budget"] = drawn.budget
            return task
        raise ConfigError(f"ta/{game.name}: {ATTEMPTS} seeds in a row gave no game to play with {self.config}")

    def prompt_func(self, identity: dict[str, Any]) -> str:
        game = GAMES[identity["game"]]
        first = replay(identity, [], game.opponent).views[0]
        budget = identity.get("budget")
        limit = f" You have {budget} moves: a game unfinished after them is lost." if budget else ""
        return f"{first}\n\n{game.answer_format} One move per reply.{limit}"


@functools.cache
def generator_class(name: str) -> type:
    game = GAMES[name]
    cls = type(f"{class_name(name)}InstructionGenerator", (TAInstructionGenerator,),
               {"game_name": name, "Config": game.config, "__module__": __name__,
                "__doc__": f"ta/{name}: {game.about}"})
    return cls


def __getattr__(attr: str) -> type:
    for name in GAMES:
        if attr == f"{class_name(name)}InstructionGenerator":
            return generator_class(name)
    raise AttributeError(attr)
