"""One InstructionGenerator per puzzle (`NonogramInstructionGenerator` is pz/nonogram's), made on first use; the
module `__getattr__` makes their dotted paths import, as `bc-gen -j` workers and YAML configs need."""
from __future__ import annotations

import functools
import random
from dataclasses import make_dataclass
from typing import Any, ClassVar

from bc_common.bootcamp import InstructionGenerator
from bc_common.errors import ConfigError

from .puzzles import PUZZLES

DRAWS = 200  # draws before a row gives up (a draw without a unique solution is thrown away)


class PzInstructionGenerator(InstructionGenerator):
    """Identity: `{"puzzle": name, "size": n, ...the clues}`; the solution is not stored (the verifier checks the
    rules, and the solution is the only grid that keeps them)."""

    puzzle_name: ClassVar[str] = ""

    def case_generator(self) -> dict[str, Any]:
        puzzle = PUZZLES[self.puzzle_name]
        # the draws shuffle thousands of clauses and cells: a Mersenne Twister seeded from the row's stream does it
        # in C (4x faster generation), the same on every machine
        rng = random.Random(self.rng.getrandbits(64))
        for _ in range(DRAWS):
            found = puzzle.draw(rng, self.size, self.drop)
            if found is not None:
                return {"puzzle": puzzle.name, "size": self.size, **found}
        raise ConfigError(f"pz/{puzzle.name}: no puzzle with a unique solution in {DRAWS} draws at size {self.size}")

    def prompt_func(self, identity: dict[str, Any]) -> str:
        return PUZZLES[identity["puzzle"]].prompt(identity)


def class_name(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


def _config(name: str) -> type:
    puzzle = PUZZLES[name]

    def validate(self: Any) -> None:
        if self.size not in puzzle.sizes:
            raise ValueError(f"size must be one of {list(puzzle.sizes)}, got {self.size!r}")
        if not 0.0 <= self.drop <= 1.0:
            raise ValueError(f"drop must be in [0, 1], got {self.drop!r}")

    return make_dataclass("Config", [("size", int, puzzle.levels[0].params["size"]), ("drop", float, puzzle.levels[0].params.get("drop", 0.0))],
                          namespace={"validate": validate})


@functools.cache
def generator_class(name: str) -> type:
    return type(f"{class_name(name)}InstructionGenerator", (PzInstructionGenerator,),
                {"puzzle_name": name, "Config": _config(name), "__module__": __name__,
                 "name": f"pz/{name}", "__doc__": f"pz/{name}: {PUZZLES[name].title} with a unique solution."})


def __getattr__(attr: str) -> type:
    for name in PUZZLES:
        if attr == f"{class_name(name)}InstructionGenerator":
            return generator_class(name)
    raise AttributeError(attr)
