"""The reference policy (the family's reference with the task's variant: the bug fixed, tried with `run_tests`,
then answered) and the baselines: what a lazy policy writes first."""
from __future__ import annotations

import json
from typing import Any

from bc_common.bootcamp import Baseline, ReferencePolicy, tool_call
from bootcamps.code_function.families import FAMILIES


def answer(code: str) -> dict[str, Any]:
    return {"role": "assistant", "content": f"Here is the fixed function:\n```python\n{code}```"}


class CodeRepairPolicy(ReferencePolicy):
    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        code = FAMILIES[self.identity["family"]].source(self.identity["params"])
        if not any(m.get("role") == "tool" for m in messages) and "run_tests" in self.tools:
            return {"role": "assistant", "content": "Let me run the visible tests on my fix.",
                    "tool_calls": [tool_call("call_0", "run_tests", {"code": code})]}
        return answer(self.identity["buggy"] if wrong else code)


class UnchangedPolicy(ReferencePolicy):
    """Answers the buggy function as it was given."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        return answer(self.identity["buggy"])


class SpecialCasePolicy(ReferencePolicy):
    """Keeps the bug and special-cases the failing test: returns its expected output for its arguments."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        shown = self.identity["examples"][0]
        buggy = self.identity["buggy"]
        entry = self.identity["entry"]
        code = (f"{buggy}\n_buggy = {entry}\n\n\ndef {entry}(*args):\n"
                "    import json\n"
                f"    if json.loads(json.dumps(list(args))) == json.loads({json.dumps(json.dumps(shown['args']))}):\n"
                f"        return json.loads({json.dumps(json.dumps(shown['expected']))})\n"
                "    return _buggy(*args)\n")
        return answer(code)


class ConstantPolicy(ReferencePolicy):
    """Replaces the body by the empty value of the visible outputs' type (0, "", [], False)."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        sample = self.identity["examples"][0]["expected"]
        empty = type(sample)() if isinstance(sample, (int, str, list, bool)) else None
        return answer(f"def {self.identity['entry']}({self.identity['signature']}):\n    return {empty!r}\n")


BASELINES = [
    Baseline("unchanged", UnchangedPolicy, "the buggy function answered as it was given"),
    Baseline("special_case", SpecialCasePolicy, "the bug kept, the failing test's arguments special-cased"),
    Baseline("constant", ConstantPolicy, "the empty value of the output type"),
]
