"""Grade a function by the hidden tests: their inputs go into the sandbox, the outputs come back as values, and
the comparison with the reference's outputs happens here, outside it. Reward = share passed; success = all."""
from __future__ import annotations

import ast
import functools
import json
from typing import Any, ClassVar

from bc_common.answer_blocks import last_code_block
from bc_common.function_runner import call_function_blocking, grade
from bc_common.sandbox import Limits
from bc_common.sandboxed_reward import SandboxedReward

from .families import FAMILIES

OUTPUT = {"output_bytes": 8 << 20, "kill_output_bytes": 16 << 20}  # the runner's JSON lines for large inputs
LIMITS = {"small": Limits(cpu_s=3, wall_s=20, memory_mb=512, processes=16, **OUTPUT),
          "medium": Limits(cpu_s=3, wall_s=20, memory_mb=512, processes=16, **OUTPUT),
          # large inputs: the reference needs well under a second of CPU; a quadratic solution needs minutes
          "large": Limits(cpu_s=4, wall_s=30, memory_mb=768, processes=16, **OUTPUT)}


def defines(code: str, entry: str) -> bool:
    """Whether the code defines a top-level function `entry` (parsed, never run, here)."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return any(isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == entry
               for node in tree.body)


@functools.lru_cache(maxsize=4096)
def hidden_score(code: str, family: str, params: str, seed: int, size: str, hidden: int, avoid: str) -> float:
    """The share of hidden tests the code passes (cached: the conformance suite grades one answer many times)."""
    fam, variant = FAMILIES[family], json.loads(params)
    inputs = fam.hidden_inputs(seed, size, hidden, json.loads(avoid), variant)
    run = call_function_blocking(code, fam.entry, inputs, limits=LIMITS[size])
    return grade(run, fam.expected(inputs, variant)) / len(inputs)


class CodeFunctionRewardCalculator(SandboxedReward):
    identity_schema: ClassVar[dict[str, Any]] = {
        "type": "object", "required": ["family", "entry", "params", "examples", "seed", "size", "hidden"],
        "properties": {"family": {"enum": sorted(FAMILIES)}, "size": {"enum": sorted(LIMITS)},
                       "params": {"type": "object"},
                       "seed": {"type": "integer"}, "hidden": {"type": "integer", "minimum": 1, "maximum": 50}}}

    @classmethod
    def limits_for(cls, identity: dict[str, Any]) -> Limits:
        return LIMITS.get(identity.get("size"), LIMITS["small"])

    @staticmethod
    def extract_output(output_str: str) -> str | None:
        return last_code_block(output_str, ("python", "py", "python3"))

    @classmethod
    def _verify_correction(cls, extracted: str, identity: dict[str, Any], **kwargs: Any) -> float:
        if identity.get("family") not in FAMILIES or not defines(extracted, identity["entry"]):
            return 0.0
        avoid = json.dumps([e["args"] for e in identity["examples"]])
        return hidden_score(extracted, identity["family"], json.dumps(identity["params"], sort_keys=True),
                            int(identity["seed"]), identity["size"], int(identity["hidden"]), avoid)
