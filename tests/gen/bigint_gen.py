"""A test generator whose identities hold integers beyond 64 bits, floats, unicode and nested lists."""
from __future__ import annotations

from dataclasses import dataclass

from bc_common.bootcamp import InstructionGenerator


@dataclass
class Config:
    digits: int = 30


class BigIntInstructionGenerator(InstructionGenerator):
    Config = Config
    name = "bigint"

    def case_generator(self) -> dict:
        n = self.rng.randrange(10 ** (self.digits - 1), 10 ** self.digits)
        return {"n": n, "neg": -n, "f": self.rng.random(), "word": "é\u2028😀", "nest": [[n % 7, [1.5]], []]}

    def prompt_func(self, identity: dict) -> str:
        return f"Factor {identity['n']}."
