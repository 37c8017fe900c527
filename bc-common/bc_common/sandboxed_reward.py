"""A verifier that runs the model's code: the sandbox it uses and the record each trajectory row keeps of it."""
from __future__ import annotations

from typing import Any, ClassVar

from .bootcamp import RewardCalculator
from .sandbox import Limits, sandbox_for


class SandboxedReward(RewardCalculator):
    """Base of verifiers that execute model-written code (always in `sandbox_for()`, under `limits_for`).

    The rollout loop stores `sandbox_record(identity)` as the trajectory's `sandbox` field, and refuses to start
    (SandboxUnavailable, exit 2) where no sandbox can run."""

    runs_code: ClassVar[bool] = True
    limits: ClassVar[Limits] = Limits(cpu_s=5, wall_s=10, memory_mb=512, processes=32)

    @classmethod
    def limits_for(cls, identity: dict[str, Any]) -> Limits:
        """The limits a verification of this task runs under (a hard group may allow more time)."""
        return cls.limits

    @classmethod
    def sandbox_record(cls, identity: dict[str, Any]) -> dict[str, Any]:
        """`{"sandbox": "bubblewrap 0.8.0", "unsandboxed": false, "limits": {...}}` for a row."""
        return sandbox_for().describe(cls.limits_for(identity))
