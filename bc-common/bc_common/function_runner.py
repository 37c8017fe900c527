"""Call a model-written function on test inputs inside the sandbox and grade its outputs outside it.

    run = await call_function(code, "solve", [[1, 2], [3, 4]], limits=Limits(wall_s=5))
    passed = grade(run, expected=[3, 7])            # how many outputs equal the expected ones

Only the INPUTS enter the sandbox. A small runner (stdlib only, fed on stdin) loads the code, calls the entry
point on each input and writes one JSON line per call to its own copy of stdout (the code's prints go to stderr).
The expected outputs stay in the harness, so printing "PASSED", exiting early, editing or deleting test files,
patching the runner or looking for the answers earns nothing: only values equal to the expected ones count.
"""
from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .sandbox import (
    Limits,
    RunResult,
    Sandbox,
    python_executable,
    retry_wall_clock_cut,
    run_blocking,
    sandbox_for,
)

MAX_CODE_CHARS = 64 * 1024
MAX_LINE_CHARS = 4 << 20

RUNNER = r'''
import json, os, sys
out = os.fdopen(os.dup(1), "w")
os.dup2(2, 1)
payload = json.loads(sys.stdin.read())
sys.stdin = open(os.devnull)
sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
def emit(record):
    out.write(json.dumps(record) + "\n")
    out.flush()
scope = {"__name__": "solution"}
try:
    exec(compile(payload["code"], "solution.py", "exec"), scope)
    entry = scope[payload["entry"]]
except BaseException as exc:
    emit({"load_error": (type(exc).__name__ + ": " + str(exc))[:500]})
    raise SystemExit(0)
for i, args in enumerate(payload["inputs"]):
    try:
        emit({"i": i, "value": entry(*args)})
    except BaseException as exc:
        emit({"i": i, "error": (type(exc).__name__ + ": " + str(exc))[:300]})
'''


@dataclass
class FunctionRun:
    """What the function returned for each input (`outputs[i]` is None where it raised, was cut off or was
    ambiguous), its errors, and the sandbox run itself."""

    outputs: list[Any]
    answered: list[bool]
    errors: dict[int, str] = field(default_factory=dict)
    load_error: str | None = None
    run: RunResult | None = None


def canonical(value: Any) -> str:
    """The comparison key of a value: its JSON text (so True != 1, a tuple equals its list, keys are sorted)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def normalised(value: Any) -> Any:
    """`value` after a JSON round trip: what a correct function's output looks like when it comes back."""
    return json.loads(canonical(value))


async def call_function(code: str, entry: str, inputs: list[list[Any]], *, limits: Limits,
                        sandbox: Sandbox | None = None) -> FunctionRun:
    """Run `entry(*args)` for each of `inputs` on `code` in a fresh sandbox workspace (twice when the first run
    is cut by the wall clock: WALL_CLOCK_TRIES)."""
    if len(code) > MAX_CODE_CHARS:
        return FunctionRun([None] * len(inputs), [False] * len(inputs), load_error="the code is too long")
    box = sandbox or sandbox_for()
    payload = json.dumps({"code": code, "entry": entry, "inputs": inputs}).encode()

    async def attempt() -> RunResult:
        with tempfile.TemporaryDirectory(prefix="bc-fn-") as folder:
            return await box.run([python_executable(), "-I", "-S", "-c", RUNNER], workspace=Path(folder),
                                 limits=limits, stdin=payload)

    return parse_outputs(await retry_wall_clock_cut(attempt), len(inputs))


def call_function_blocking(code: str, entry: str, inputs: list[list[Any]], *, limits: Limits,
                           sandbox: Sandbox | None = None) -> FunctionRun:
    """`call_function` for synchronous callers (a verifier)."""
    return run_blocking(call_function(code, entry, inputs, limits=limits, sandbox=sandbox))


def parse_outputs(result: RunResult, count: int) -> FunctionRun:
    """Read the runner's lines: one value or error per input; an input answered twice differently, or not at all,
    counts as unanswered."""
    seen: dict[int, set[str]] = {}
    values: dict[int, Any] = {}
    errors: dict[int, str] = {}
    load_error = None
    for line in result.stdout.splitlines():
        if len(line) > MAX_LINE_CHARS or not line.startswith("{"):
            continue
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if not isinstance(record, dict):
            continue
        if "load_error" in record:
            load_error = str(record["load_error"])[:500]
            continue
        index = record.get("i")
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < count:
            continue
        key = canonical(record.get("value")) if "value" in record else "error:" + str(record.get("error"))[:300]
        seen.setdefault(index, set()).add(key)
        if "value" in record:
            values[index] = record["value"]
        else:
            errors[index] = str(record.get("error"))[:300]
    answered = [len(seen.get(i, ())) == 1 and i in values and i not in errors for i in range(count)]
    outputs = [values[i] if answered[i] else None for i in range(count)]
    return FunctionRun(outputs, answered, errors, load_error, result)


def grade(run: FunctionRun, expected: list[Any]) -> int:
    """How many outputs equal their expected value (compared as canonical JSON, outside the sandbox)."""
    return sum(1 for ok, got, want in zip(run.answered, run.outputs, expected, strict=True)
               if ok and canonical(got) == canonical(want))
