"""Built-in models (no network, no key): each bootcamp's reference policy and declared baselines, played
through the same loop.

`builtin:reference` answers as the policy does; `builtin:noisy` answers a turn wrongly with probability
`error_rate`, drawn from `rng_for(task_id, sample, turn)` so every run of the same tasks is identical; a `seed`
parameter keys a different (equally reproducible) stream, for independent noisy runs of the same tasks.
`builtin:baseline/NAME` plays the bootcamp's declared baseline NAME (`builtin:random` is `builtin:baseline/random`);
its policy's `rng` is keyed by (task, sample, turn, name) and the `seed` parameter the same way.
"""
from __future__ import annotations

import time
from typing import Any

from .environment import identity_of
from .errors import BcError, ConfigError, RegistryError, raised_at
from .model import ModelReply, ModelRequest
from .seeding import rng_for

KINDS = ("reference", "noisy", "random", "baseline/NAME")


def is_builtin(model: str) -> bool:
    return model.startswith("builtin:")


class PolicyError(BcError):
    """A reference or baseline policy raised: names its class and the bootcamp's line that raised."""


class BuiltinModel:
    """A reference-policy model. `params`: `error_rate` (noisy only, default 0.3) and `seed` (default: none, the
    stream every earlier run used)."""

    def __init__(self, model: str, params: dict[str, Any] | None = None):
        kind = model.split(":", 1)[1]
        self.baseline = baseline_name(kind)
        if kind not in ("reference", "noisy") and self.baseline is None:
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
        identity = request.identity if request.identity is not None else identity_of(request.task)
        tools = [t["function"]["name"] for t in request.tools]
        if self.baseline is not None:
            policy_class = request.baselines.get(self.baseline)
            if policy_class is None:
                declared = ", ".join(sorted(request.baselines)) or "none"
                raise RegistryError(f"bootcamp of {request.task.get('data_source')!r} declares no baseline "
                                    f"{self.baseline!r} (declared: {declared})")
            policy = policy_class(identity, tools=tools)
            policy.rng = rng_for(request.task_id, request.sample, request.turn, "baseline", self.baseline,
                                 *self.seed_key)
            wrong = False
        else:
            if request.policy is None:
                raise RegistryError(f"bootcamp of {request.task.get('data_source')!r} has no reference policy")
            policy = request.policy(identity, tools=tools)
            policy.rng = rng_for(request.task_id, request.sample, request.turn, "policy", *self.seed_key)
            wrong = self.error_rate > 0 and rng_for(request.task_id, request.sample, request.turn,
                                                    "noisy", *self.seed_key).random() < self.error_rate
        try:
            message = dict(policy.respond(request.messages, wrong=wrong))
        except Exception as exc:  # name the bootcamp's class and line, not just ZeroDivisionError
            cls = type(policy)
            raise PolicyError(f"{'baseline ' + repr(self.baseline) if self.baseline else 'reference policy'} "
                              f"{cls.__module__}.{cls.__qualname__}.respond failed at "
                              f"{raised_at(exc, cls.__module__)}: {type(exc).__name__}: {exc}") from exc
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

    def policy_available(self, env: Any) -> str | None:
        """Why this built-in model cannot play `env`'s tasks (no reference policy, no such baseline), else None."""
        if self.baseline is not None:
            if self.baseline not in env.baselines:
                declared = ", ".join(sorted(env.baselines)) or "none"
                return f"{env.data_source} declares no baseline {self.baseline!r} (declared: {declared})"
            return None
        if env.policy is None:
            return f"{env.data_source} has no reference policy for the built-in models"
        return None

    async def aclose(self) -> None:
        pass



def baseline_name(kind: str) -> str | None:
    """The baseline a built-in kind plays (`random` -> `random`, `baseline/greedy` -> `greedy`), else None."""
    if kind == "random":
        return "random"
    if kind.startswith("baseline/") and kind[len("baseline/"):]:
        return kind[len("baseline/"):]
    return None


def _chars(content: Any) -> int:
    """Characters of a message's content for the token estimate; an image counts as 1,024 (about 256 tokens),
    not as the length of its data URL."""
    if isinstance(content, list):
        return sum(len(str(p.get("text") or "")) if p.get("type") == "text" else 1024
                   for p in content if isinstance(p, dict))
    return len(str(content or ""))


async def baseline_trajectory(task: dict[str, Any], env: Any, name: str, *, limits: Any = None,
                              sample: int = 0) -> dict[str, Any]:
    """The trajectory record of the bootcamp's declared baseline `name` on `task` (the rollout loop bc-eval runs)."""
    from .rollout import run_trajectory

    model_name = f"builtin:baseline/{name}"
    return await run_trajectory(task, sample, BuiltinModel(model_name), env, model_name=model_name, limits=limits)


async def reference_trajectory(task: dict[str, Any], env: Any, *, wrong: bool = False, limits: Any = None,
                               sample: int = 0) -> dict[str, Any]:
    """The trajectory record of the bootcamp's reference policy on `task`, played through the same rollout loop
    `bc-eval` runs (`wrong=True`: every answer wrong, as `builtin:noisy` with error_rate 1)."""
    from .rollout import run_trajectory

    model = BuiltinModel("builtin:noisy", {"error_rate": 1.0}) if wrong else BuiltinModel("builtin:reference")
    name = "builtin:noisy" if wrong else "builtin:reference"
    return await run_trajectory(task, sample, model, env, model_name=name, limits=limits)
