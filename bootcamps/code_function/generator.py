"""code_function tasks: a family, its per-task variant (parameters the spec names), three visible examples, and the
seed of the hidden tests (drawn at grading)."""
from __future__ import annotations

import json
import random
import textwrap
from dataclasses import dataclass
from typing import Any

from bc_common.bootcamp import InstructionGenerator

from .families import FAMILIES, LEVELS
from .family import SIZES, Family

EXAMPLES = 3
HIDDEN = 10  # random hidden tests, besides the family's edge cases (and, large size, its big inputs)

PROMPT = """Write a Python function

    def {entry}({signature}):

{spec}

Examples:
{examples}

It is graded on hidden tests (edge cases and other inputs{large}) run in a sandbox: standard library only, no \
network, no files. `run_tests` tries your code on the examples above. Reply with the complete function in one \
```python block."""


@dataclass
class CodeFunctionConfig:
    level: str = "easy"  # which families: easy, medium or hard (see families.py)
    size: str = "small"  # input size of the hidden tests: small, medium, or large (big inputs under a time limit)

    def validate(self) -> None:
        if self.level not in LEVELS:
            raise ValueError(f"level must be one of {', '.join(LEVELS)}")
        if self.size not in SIZES:
            raise ValueError(f"size must be one of {', '.join(SIZES)}")


class CodeFunctionInstructionGenerator(InstructionGenerator):
    """Identity: {family, entry, signature, params, examples: [{args, expected}], seed, size, hidden}."""

    Config = CodeFunctionConfig
    name = "code_function"

    def case_generator(self) -> dict[str, Any]:
        family = self.rng.choice(LEVELS[self.level])
        params = family.variant(self.rng)
        return {"family": family.entry, "entry": family.entry, "signature": family.signature, "params": params,
                "examples": draw_examples(self.rng, family, params, self.size), "seed": self.rng.getrandbits(62),
                "size": self.size, "hidden": HIDDEN}

    def prompt_func(self, identity: dict[str, Any]) -> str:
        family = FAMILIES[identity["family"]]
        examples = "\n".join(f"    {identity['entry']}({', '.join(json.dumps(a) for a in e['args'])}) == "
                             f"{json.dumps(e['expected'])}" for e in identity["examples"])
        large = ", and large inputs under a time limit" if identity["size"] == "large" else ""
        return PROMPT.format(entry=identity["entry"], signature=identity["signature"],
                             spec=textwrap.fill(family.spec(identity["params"]), 110),
                             examples=examples, large=large)


def draw_examples(rng: random.Random, family: Family, params: dict[str, Any], size: str,
                  count: int = EXAMPLES) -> list[dict[str, Any]]:
    """`count` distinct short argument lists with the reference's outputs (examples stay short enough to read)."""
    n = SIZES["medium" if size == "large" else size]
    inputs: list[list[Any]] = []
    for _ in range(count * 20):
        args = family.draw(rng, min(n, 8), params)
        if args not in inputs:
            inputs.append(args)
        if len(inputs) == count:
            break
    return [{"args": args, "expected": out} for args, out in zip(inputs, family.expected(inputs, params),
                                                                  strict=True)]
