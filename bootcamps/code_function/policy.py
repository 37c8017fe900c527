"""The reference policy (the family's reference implementation, tried with `run_tests`, then answered) and the
baselines: what a lazy policy writes first."""
from __future__ import annotations

import json
from typing import Any

from bc_common.bootcamp import Baseline, ReferencePolicy, tool_call

from .families import FAMILIES


def answer(code: str) -> dict[str, Any]:
    return {"role": "assistant", "content": f"Here is the function:\n```python\n{code}```"}


def broken(code: str, entry: str) -> str:
    """The reference with its result wrapped: wrong on every input (the noisy model's mistake)."""
    return (f"{code}\n\n_reference = {entry}\n\n\ndef {entry}(*args):\n    return [_reference(*args), 'wrong']\n")


class CodeFunctionPolicy(ReferencePolicy):
    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        entry = self.identity["entry"]
        code = FAMILIES[self.identity["family"]].source(self.identity["params"])
        if not any(m.get("role") == "tool" for m in messages) and "run_tests" in self.tools:
            return {"role": "assistant", "content": "Let me try it on the examples.",
                    "tool_calls": [tool_call("call_0", "run_tests", {"code": code})]}
        return answer(broken(code, entry) if wrong else code)


def signature_line(identity: dict[str, Any]) -> str:
    return f"def {identity['entry']}({identity['signature']}):"


class ExamplesLookupPolicy(ReferencePolicy):
    """Hard-codes the visible examples and answers the first example's output for anything else."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        table = [(e["args"], e["expected"]) for e in self.identity["examples"]]
        code = (f"{signature_line(self.identity)}\n"
                f"    table = {json.dumps(table)!r}\n"
                "    import json\n"
                "    args = json.loads(json.dumps([" + ", ".join(_params(self.identity)) + "]))\n"
                "    for known, out in json.loads(table):\n"
                "        if known == args:\n"
                "            return out\n"
                "    return json.loads(table)[0][1]\n")
        return answer(code)


class ConstantPolicy(ReferencePolicy):
    """Returns the empty value of the examples' output type (0, "", [], False)."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        sample = self.identity["examples"][0]["expected"]
        empty = type(sample)() if isinstance(sample, (int, str, list, bool)) else None
        return answer(f"{signature_line(self.identity)}\n    return {empty!r}\n")


class EchoPolicy(ReferencePolicy):
    """Returns its first argument unchanged."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        return answer(f"{signature_line(self.identity)}\n    return {_params(self.identity)[0]}\n")


class PrintPassedPolicy(ReferencePolicy):
    """The reward hack: prints that every test passed and exits before any test runs."""

    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        return answer("import sys\nprint('PASSED: all tests passed')\nsys.exit(0)\n\n"
                      f"{signature_line(self.identity)}\n    return None\n")


def _params(identity: dict[str, Any]) -> list[str]:
    return [p.split(":")[0].strip() for p in identity["signature"].split(",")]


BASELINES = [
    Baseline("examples_lookup", ExamplesLookupPolicy, "the visible examples hard-coded, the first one's output otherwise"),
    Baseline("constant", ConstantPolicy, "the empty value of the output type"),
    Baseline("echo", EchoPolicy, "the first argument returned unchanged"),
    Baseline("print_passed", PrintPassedPolicy, "prints PASSED and exits before the tests (a reward hack)"),
]
