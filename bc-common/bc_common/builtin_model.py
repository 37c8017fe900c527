"""Built-in models (no network, no key): each bootcamp's reference policy, played through the same loop.

`builtin:reference` answers as the policy does; `builtin:noisy` answers a turn wrongly with probability
`error_rate`, drawn from `rng_for(task_id, sample, turn)` so every run of the same tasks is identical; a `seed`
parameter keys a different (equally reproducible) stream, for independent noisy runs of the same tasks.
"""
from __future__ import annotations

import time
from typing import Any

from .environment import identity_of
from .errors import ConfigError, RegistryError
from .model import ModelReply, ModelRequest
from .seeding import rng_for

KINDS = ("reference", "noisy")


def is_builtin(model: str) -> bool:
    return model.startswith("builtin:")


class BuiltinModel:
    """A reference-policy model. `params`: `error_rate` (noisy only, default 0.3) and `seed` (default: none, the
    stream every earlier run used)."""

    def __init__(self, model: str, params: dict[str, Any] | None = None):
        kind = model.split(":", 1)[1]
        if kind not in KINDS:
            raise ConfigError(f"unknown built-in model {model!r}; choose one of "
                              + ", ".join(f"builtin:{k}" for k in KINDS))
        params = dict(params or {})
        self.kind = kind
        self.error_rate = float(params.pop("error_rate", 0.3 if kind == "noisy" else 0.0))
        if not 0.0 <= self.error_rate <= 1.0:
            raise ConfigError(f"error_rate must be in [0, 1], got {self.error_rate}")
        seed = params.pop("seed", None)
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise ConfigError(f"seed must be an integer, got {seed!r}")
        self.seed_key = () if seed is None else (seed,)  # no seed: the keys of runs made before seeds existed
        self.ignored = sorted(params)  # parameters a built-in model has no use for (the CLI warns)

    async def complete(self, request: ModelRequest) -> ModelReply:
        started = time.perf_counter()
        if request.policy is None:
            raise RegistryError(f"bootcamp of {request.task.get('data_source')!r} has no reference policy")
        identity = identity_of(request.task)
        policy = request.policy(identity, tools=[t["function"]["name"] for t in request.tools])
        wrong = self.error_rate > 0 and rng_for(request.task_id, request.sample, request.turn,
                                                "noisy", *self.seed_key).random() < self.error_rate
        message = dict(policy.respond(request.messages, wrong=wrong))
        message.setdefault("content", "")
        if message["content"] is None:
            message["content"] = ""
        if not message.get("tool_calls"):
            message.pop("tool_calls", None)
        prompt = sum(_chars(m.get("content")) for m in request.messages) // 4 + 1
        completion = (len(message["content"]) + sum(len(c["function"]["arguments"])
                                                    for c in message.get("tool_calls", []))) // 4 + 1
        return ModelReply(message, "tool_calls" if message.get("tool_calls") else "stop",
                          {"prompt_tokens": prompt, "completion_tokens": completion,
                           "total_tokens": prompt + completion},
                          time.perf_counter() - started)

    async def check(self) -> str:
        return f"builtin:{self.kind} needs no endpoint"

    async def aclose(self) -> None:
        pass



def _chars(content: Any) -> int:
    """Characters of a message's content for the token estimate; an image counts as 1,024 (about 256 tokens),
    not as the length of its data URL."""
    if isinstance(content, list):
        return sum(len(str(p.get("text") or "")) if p.get("type") == "text" else 1024
                   for p in content if isinstance(p, dict))
    return len(str(content or ""))


async def reference_trajectory(task: dict[str, Any], env: Any, *, wrong: bool = False, limits: Any = None,
                               sample: int = 0) -> dict[str, Any]:
    """The trajectory record of the bootcamp's reference policy on `task`, played through the same rollout loop
    `bc-eval` runs (`wrong=True`: every answer wrong, as `builtin:noisy` with error_rate 1)."""
    from .rollout import run_trajectory

    model = BuiltinModel("builtin:noisy", {"error_rate": 1.0}) if wrong else BuiltinModel("builtin:reference")
    name = "builtin:noisy" if wrong else "builtin:reference"
    return await run_trajectory(task, sample, model, env, model_name=name, limits=limits)
