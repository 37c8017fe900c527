"""One InstructionGenerator per offered game: `HexInstructionGenerator` is os/hex's. The classes are made on first
use (a module `__getattr__`), so their dotted paths import, as `bc-gen -j` workers and seed YAML configs need."""
from __future__ import annotations

import functools
from dataclasses import dataclass, make_dataclass
from typing import Any, ClassVar

from bc_common.bootcamp import InstructionGenerator
from bc_common.errors import ConfigError

from .games import GAMES, load
from .play import MOVE_TAG, replay, view
from .positions import draw

ATTEMPTS = 400  # random games tried for one row before the generator gives up


class OSInstructionGenerator(InstructionGenerator):
    """Draws a position of the group's board from the row's rng (`positions.draw`)."""

    game_name: ClassVar[str] = ""

    def case_generator(self) -> dict[str, Any]:
        game = GAMES[self.game_name]
        board = game.board(self.board)
        for _ in range(ATTEMPTS):
            found = draw(self.rng, board)
            if found is not None:
                state = load(board.spec).new_initial_state()
                for action in found.history:
                    state.apply_action(action)
                return {"game": game.name, "spec": board.spec, "history": found.history, "player": found.player,
                        "depth": board.depth,
                        "winning": sorted(state.action_to_string(found.player, a) for a in found.winning)}
        raise ConfigError(f"os/{game.name}: {ATTEMPTS} random games gave no position with a forced win in "
                          f"{board.depth} on {board.spec}")

    def prompt_func(self, identity: dict[str, Any]) -> str:
        game = GAMES[identity["game"]]
        played = replay(identity, [])
        return (f"{game.title} (OpenSpiel `{identity['spec']}`). {game.rules}\n\n"
                f"You can force a win in {identity['depth']} of your moves, whatever your opponent does; your "
                f"opponent defends perfectly. Win within {identity['depth']} moves: a game not won by then, or a "
                f"reply without a legal move, is lost.\n\n{view(played)}\n\n"
                f"Reply with one move per message, written as listed, in a block: <{MOVE_TAG}>MOVE</{MOVE_TAG}>.")


def _config(name: str) -> type:
    boards = [b.group for b in GAMES[name].boards]

    def validate(self: Any) -> None:
        if self.board not in boards:
            raise ValueError(f"board must be one of {boards}, got {self.board!r}")

    return make_dataclass("Config", [("board", str, boards[0])], namespace={"validate": validate})


def class_name(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


@functools.cache
def generator_class(name: str) -> type:
    return type(f"{class_name(name)}InstructionGenerator", (OSInstructionGenerator,),
                {"game_name": name, "Config": dataclass(_config(name)), "__module__": __name__,
                 "__doc__": f"os/{name}: positions of {GAMES[name].title} with a forced win."})


def __getattr__(attr: str) -> type:
    for name in GAMES:
        if attr == f"{class_name(name)}InstructionGenerator":
            return generator_class(name)
    raise AttributeError(attr)
