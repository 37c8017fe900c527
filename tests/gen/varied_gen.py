"""Test generators for the fast row loop: chat-message prompts with unicode, and a tiny identity space (redraws)."""
from __future__ import annotations

from dataclasses import dataclass

from bc_common.bootcamp import InstructionGenerator


@dataclass
class Config:
    size: int = 5


class MessagesInstructionGenerator(InstructionGenerator):
    """A prompt given as chat messages (not a string): rows take the dict path, not the bytes template."""

    name = "messages"

    def case_generator(self) -> dict:
        return {"k": self.rng.getrandbits(70), "text": "naïve ☃ \u2028 \"quoted\" %s %d", "deep": [[[{"x": None}]]]}

    def prompt_func(self, identity: dict) -> list:
        return [{"role": "system", "content": "Réponds en français."},
                {"role": "user", "content": f"{identity['text']} {identity['k']}"}]


class TinyInstructionGenerator(InstructionGenerator):
    """`size` distinct identities: most rows of a long run are duplicates, redrawn until new (or refused)."""

    Config = Config
    name = "tiny"

    def case_generator(self) -> dict:
        return {"v": self.rng.randrange(self.size), "tag": "ü" * self.rng.randrange(1, 3)}

    def prompt_func(self, identity: dict) -> str:
        return f"Echo {identity['v']} {identity['tag']} 100%."
