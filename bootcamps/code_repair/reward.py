"""Grade a repair by the hidden tests, as code_function does (inputs into the sandbox, values back, compared
outside), scored as the gap closed over the buggy function (graded the same way): 0 for the bug left in or worse,
1 for every hidden test passed."""
from __future__ import annotations

import functools
import json
from typing import Any, ClassVar

from bc_common.function_runner import call_function_blocking, grade
from bootcamps.code_function.families import FAMILIES
from bootcamps.code_function.reward import LIMITS, CodeFunctionRewardCalculator, defines

from .generator import hidden_outcomes


@functools.lru_cache(maxsize=4096)
def passed_hidden(code: str, identity_json: str) -> tuple[int, int]:
    """(hidden tests passed, hidden tests) for the code (cached: the conformance suite grades one answer often)."""
    identity = json.loads(identity_json)
    inputs, expected = hidden_outcomes(identity)
    run = call_function_blocking(code, identity["entry"], inputs, limits=LIMITS[identity["size"]])
    return grade(run, expected), len(inputs)


class CodeRepairRewardCalculator(CodeFunctionRewardCalculator):
    """code_function's answer block and per-size limits; its own identity and the gap-closed score."""

    identity_schema: ClassVar[dict[str, Any]] = {
        "type": "object",
        "required": ["family", "entry", "params", "examples", "seed", "size", "hidden", "buggy"],
        "properties": {"family": {"enum": sorted(FAMILIES)}, "size": {"enum": sorted(LIMITS)},
                       "params": {"type": "object"}, "seed": {"type": "integer"}, "buggy": {"type": "string"},
                       "hidden": {"type": "integer", "minimum": 1, "maximum": 50}}}

    @classmethod
    def _verify_correction(cls, extracted: str, identity: dict[str, Any], **kwargs: Any) -> float:
        if identity.get("family") not in FAMILIES or not defines(extracted, identity["entry"]):
            return 0.0
        key = json.dumps({k: identity[k] for k in ("family", "entry", "params", "examples", "seed", "size",
                                                   "hidden")}, sort_keys=True)
        passed, total = passed_hidden(extracted, key)
        if passed == total:
            return 1.0
        buggy, _ = passed_hidden(identity["buggy"], key)  # the bug's own score, in the same sandbox and limits
        return max(0.0, (passed - buggy) / (total - buggy)) if buggy < total else 0.0
