"""Grade the final ```sh block by the state it leaves: the script runs in the sandbox on a fresh copy of the
task's workspace, the workspace is read back (symlinks never followed) and compared with the state the chore
asks for, computed here from the same tree. 1.0 for the right state, else 0."""
from __future__ import annotations

import functools
import json
from typing import Any, ClassVar

from bc_common.answer_blocks import last_code_block
from bc_common.code_tools import read_tree, write_tree
from bc_common.sandbox import (
    Limits,
    RunResult,
    make_workspace,
    remove_workspace,
    retry_wall_clock_cut,
    run_blocking,
    sandbox_for,
)
from bc_common.sandboxed_reward import SandboxedReward

from .chore import same_state
from .chores import BY_KEY
from .tree import SIZES, build_tree

LIMITS = Limits(cpu_s=5, wall_s=15, memory_mb=256, processes=32, file_size_mb=4, output_bytes=4096)
MAX_SCRIPT_CHARS = 16 * 1024


@functools.lru_cache(maxsize=4096)
def graded(script: str, chore: str, params: str, seed: int, size: str) -> float:
    """1.0 when `script`, run on the workspace of (seed, size), leaves the state the chore asks for (cached: the
    conformance suite grades one answer many times)."""
    task = BY_KEY[chore]
    before = build_tree(seed, size)
    want = task.apply(before, json.loads(params))

    async def attempt() -> tuple[RunResult, Any]:  # a fresh copy of the workspace each time
        folder = make_workspace(prefix="bc-shellgrade-")
        try:
            write_tree(folder, before)
            run = await sandbox_for().run(["/bin/sh", "-c", script], workspace=folder, limits=LIMITS)
            return run, read_tree(folder)
        finally:
            remove_workspace(folder)

    run, got = run_blocking(retry_wall_clock_cut(attempt, cut=lambda outcome: outcome[0].timed_out))
    if run.timed_out or got is None:  # a script that never ends, or floods the folder, has no final state
        return 0.0
    return float(same_state(got, want, task.modes(before, want)))


class ShellWorkspaceRewardCalculator(SandboxedReward):
    limits = LIMITS
    identity_schema: ClassVar[dict[str, Any]] = {
        "type": "object", "required": ["chore", "params", "seed", "size"],
        "properties": {"chore": {"enum": sorted(BY_KEY)}, "size": {"enum": sorted(SIZES)},
                       "seed": {"type": "integer"}, "params": {"type": "object"}}}

    @staticmethod
    def extract_output(output_str: str) -> str | None:
        script = last_code_block(output_str, ("sh", "bash", "shell"), max_chars=MAX_SCRIPT_CHARS)
        return script if script and script.strip() else None

    @classmethod
    def _verify_correction(cls, extracted: str, identity: dict[str, Any], **kwargs: Any) -> float:
        if identity.get("chore") not in BY_KEY or identity.get("size") not in SIZES:
            return 0.0
        return graded(extracted, identity["chore"], json.dumps(identity["params"], sort_keys=True),
                      int(identity["seed"]), identity["size"])
