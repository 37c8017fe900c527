"""code_repair tasks: a code_function family and variant, its reference with one seeded bug, the visible tests
(one of them failing on the bug) and the seed of the hidden tests."""
from __future__ import annotations

import json
import textwrap
from dataclasses import dataclass
from typing import Any

from bc_common.bootcamp import InstructionGenerator
from bootcamps.code_function.families import FAMILIES, LEVELS
from bootcamps.code_function.family import SIZES
from bootcamps.code_function.generator import HIDDEN, draw_examples

from .bugs import Outcome, apply_bug, candidate_bugs, run_guarded

PROMPT = """This Python function has a bug. What it should do:

{spec}

```python
{buggy}```

A failing test: `{call}` should return `{expected}`, but {got}.

Fix the bug. The fix is graded on hidden tests (edge cases and other inputs{large}) run in a sandbox: standard \
library only, no network, no files. `run_tests` runs the visible tests (the failing one and {others} more). Reply \
with the complete fixed function in one ```python block."""


@dataclass
class CodeRepairConfig:
    level: str = "easy"  # which families: easy, medium or hard (code_function's levels)
    size: str = "small"  # input size of the hidden tests: small, medium, or large (big inputs under a time limit)

    def validate(self) -> None:
        if self.level not in LEVELS:
            raise ValueError(f"level must be one of {', '.join(LEVELS)}")
        if self.size not in SIZES:
            raise ValueError(f"size must be one of {', '.join(SIZES)}")


def hidden_outcomes(identity: dict[str, Any]) -> tuple[list[list[Any]], list[Any]]:
    """The hidden tests of a task: inputs (none equal to a visible test) and the reference's outputs."""
    family = FAMILIES[identity["family"]]
    avoid = [e["args"] for e in identity["examples"]]
    inputs = family.hidden_inputs(int(identity["seed"]), identity["size"], int(identity["hidden"]), avoid,
                                  identity["params"])
    return inputs, family.expected(inputs, identity["params"])


class CodeRepairInstructionGenerator(InstructionGenerator):
    """Identity: {family, entry, signature, params, bug: {kind, site}, buggy (source), examples (the failing one
    first), shown_output, seed, size, hidden}."""

    Config = CodeRepairConfig
    name = "code_repair"

    def case_generator(self) -> dict[str, Any]:
        for _ in range(50):
            family = self.rng.choice(LEVELS[self.level])
            params = family.variant(self.rng)
            source = family.source(params)
            examples = draw_examples(self.rng, family, params, self.size, count=4)
            identity = {"family": family.entry, "entry": family.entry, "signature": family.signature,
                        "params": params, "seed": self.rng.getrandbits(62), "size": self.size, "hidden": HIDDEN}
            bugs = candidate_bugs(source)
            self.rng.shuffle(bugs)
            for bug in bugs[:12]:
                found = self._try(identity, source, bug, examples)
                if found is not None:
                    return found
        raise RuntimeError("no bug that a visible test shows in 50 draws")

    def _try(self, identity: dict[str, Any], source: str, bug: Any, examples: list[dict[str, Any]]
             ) -> dict[str, Any] | None:
        """The task with this bug, when one visible test shows it, some visible test passes (a bug, not a
        rewrite) and it breaks some small hidden test too (else None). The buggy function may run 20 times the
        reference's lines on an input before it counts as stuck."""
        buggy = apply_bug(source, bug)
        if buggy == source:
            return None
        entry = identity["entry"]
        args = [e["args"] for e in examples]
        budgets = [20 * o.lines + 2000 for o in run_guarded(source, entry, args)]
        visible = run_guarded(buggy, entry, args, budgets)
        failing = [k for k, o in enumerate(visible) if not o.answered or o.value != examples[k]["expected"]]
        if not failing or len(failing) == len(examples):
            return None
        shown = examples[failing[0]]
        ordered = [shown] + [e for e in examples if e is not shown][:2]
        identity = identity | {"bug": {"kind": bug.kind, "site": bug.site}, "buggy": buggy, "examples": ordered,
                               "shown_output": _shown(visible[failing[0]])}
        family = FAMILIES[entry]
        small = family.hidden_inputs(int(identity["seed"]), "medium" if identity["size"] == "large" else
                                     identity["size"], int(identity["hidden"]), [e["args"] for e in ordered],
                                     identity["params"])
        budgets = [20 * o.lines + 2000 for o in run_guarded(source, entry, small)]
        outcomes = run_guarded(buggy, entry, small, budgets)
        expected = family.expected(small, identity["params"])
        if all(o.answered and o.value == want for o, want in zip(outcomes, expected, strict=True)):
            return None
        return identity

    def prompt_func(self, identity: dict[str, Any]) -> str:
        family = FAMILIES[identity["family"]]
        shown = identity["examples"][0]
        call = f"{identity['entry']}({', '.join(json.dumps(a) for a in shown['args'])})"
        got = identity["shown_output"]
        large = ", and large inputs under a time limit" if identity["size"] == "large" else ""
        return PROMPT.format(spec=textwrap.fill(family.spec(identity["params"]), 110), buggy=identity["buggy"],
                             call=call, expected=json.dumps(shown["expected"]), got=got, large=large,
                             others=len(identity["examples"]) - 1)


def _shown(outcome: Outcome) -> str:
    return (f"it returns `{json.dumps(outcome.value)[:300]}`" if outcome.answered
            else "it raises an error or never returns")
