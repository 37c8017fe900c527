"""Resolve a task's bootcamp (`data_source`) to its verifier, tool runtime, interactions and reference policy.

Each config file is loaded once per process and its runtime shared by every trajectory (tool and interaction
objects keep per-instance state, one instance per trajectory). Seed-style flags override the bootcamp's parts.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from .bootcamp import Bootcamp, Interaction, ReferencePolicy, RewardCalculator
from .catalog import get_bootcamp
from .classes import load_class
from .errors import RegistryError
from .records import task_identity
from .registry import bootcamp_from_entry, load_registry_file
from .sandbox import sandbox_for
from .tool_config import InteractionSpec, ToolSpec, load_interaction_config, load_tool_config
from .tool_runtime import ToolRuntime


@dataclass
class Environment:
    """What one bootcamp needs at rollout time."""

    data_source: str
    reward: type[RewardCalculator]
    tools: ToolRuntime | None = None
    interactions: dict[str, Interaction] = field(default_factory=dict)
    policy: type[ReferencePolicy] | None = None
    baselines: dict[str, type] = field(default_factory=dict)  # declared baselines' policies, by name
    limits: dict[str, int] = field(default_factory=dict)  # the bootcamp's own turn budgets (see Bootcamp.limits)
    seats: type | None = None  # the bootcamp's game for seated models (bc_common.seats.SeatedGame), if any

    def interaction(self, name: str | None) -> Interaction | None:
        """The interaction called `name`; the only one when `name` is empty or names another (the seed's rows
        name the seed's interaction: `substitutes` tells a caller to warn); None when there is none."""
        if not self.interactions:
            return None
        if not name or (name not in self.interactions and len(self.interactions) == 1):
            return next(iter(self.interactions.values()))
        return self.interactions.get(name)

    def substitutes(self, name: str | None) -> str | None:
        """The name of the interaction that stands in for `name` (a name this environment lacks), else None."""
        if name and name not in self.interactions and len(self.interactions) == 1:
            return next(iter(self.interactions))
        return None


class Environments:
    """A per-process cache of environments by data_source.

        envs = Environments()
        env = envs.get("bootcamp/arithmetic")
    """

    def __init__(self, *, tool_config: str | Path | None = None, interaction_config: str | Path | None = None,
                 reward_calculator: str | None = None, registry_file: str | Path | None = None,
                 bootcamps: list[Bootcamp] | None = None):
        self.tool_config = tool_config
        self.interaction_config = interaction_config
        self.reward_calculator = reward_calculator
        self._registry = {e.data_source: e for e in load_registry_file(registry_file)} if registry_file else {}
        # manifests given as objects (the conformance suite's own, and bootcamps built in tests): no catalog look-up
        self._given = {b.data_source: b for b in bootcamps or []}
        self._envs: dict[str, Environment] = {}
        self._runtimes: dict[Any, ToolRuntime] = {}
        self._interactions: dict[Any, dict[str, Interaction]] = {}

    def get(self, data_source: str) -> Environment:
        env = self._envs.get(data_source)
        if env is None:
            env = self._envs[data_source] = self._resolve(data_source)
        return env

    def _bootcamp(self, data_source: str) -> Bootcamp | None:
        if data_source in self._given:
            return self._given[data_source]
        entry = self._registry.get(data_source)
        if entry is not None:
            return bootcamp_from_entry(entry)
        try:
            return get_bootcamp(data_source)
        except RegistryError as exc:
            if self.reward_calculator:  # seed style: the flags name every part
                return None
            if self.tool_config or self.interaction_config:
                raise RegistryError(f"{exc} (rows of an unregistered data_source need --reward-calculator "
                                    "besides --tool-config / --interaction-config)") from None
            raise

    def _resolve(self, data_source: str) -> Environment:
        bootcamp = self._bootcamp(data_source)
        reward = load_class(self.reward_calculator) if self.reward_calculator else bootcamp.reward
        if not isinstance(reward, type) or not callable(getattr(reward, "verify_score", None)):
            raise RegistryError(f"{self.reward_calculator or data_source}: the reward calculator must be a class "
                                "with verify_score (a bc_common.bootcamp.RewardCalculator)")
        if self.tool_config:
            tools = self._runtime(Path(self.tool_config).resolve(), lambda: load_tool_config(self.tool_config))
        elif bootcamp is not None and (bootcamp.tools or bootcamp.tool_config):
            tools = self._runtime(("bootcamp", bootcamp.name), bootcamp.tool_specs)
        else:
            tools = None
        if self.interaction_config:
            interactions = self._interaction(Path(self.interaction_config).resolve(),
                                             lambda: load_interaction_config(self.interaction_config))
        elif bootcamp is not None and (bootcamp.interaction or bootcamp.interaction_config):
            interactions = self._interaction(("bootcamp", bootcamp.name), bootcamp.interaction_spec)
        else:
            interactions = {}
        if getattr(reward, "runs_code", False) or any(getattr(t, "runs_code", False)
                                                      for t in (tools.tools.values() if tools else ())):
            sandbox_for()  # model code never runs unsandboxed by accident: SandboxUnavailable names the install
        return Environment(data_source=data_source, reward=reward, tools=tools, interactions=interactions,
                           policy=bootcamp.policy if bootcamp else None,
                           baselines={b.name: b.policy for b in bootcamp.baselines} if bootcamp else {},
                           limits=dict(bootcamp.limits) if bootcamp else {},
                           seats=bootcamp.seats if bootcamp else None)

    def _runtime(self, key: Any, specs: Callable[[], list[ToolSpec]]) -> ToolRuntime:
        """One runtime per tool set (a config file, or a bootcamp's classes), shared by its trajectories."""
        if key not in self._runtimes:
            self._runtimes[key] = ToolRuntime.from_specs(specs())
        return self._runtimes[key]

    def _interaction(self, key: Any, spec: Callable[[], InteractionSpec | None]) -> dict[str, Interaction]:
        if key not in self._interactions:
            found = spec()
            self._interactions[key] = {found.name: found.instantiate()} if found else {}
        return self._interactions[key]


def identity_of(task: dict[str, Any]) -> Any:
    """The task's identity (ground truth); decoded when a parquet round trip left it as JSON text."""
    identity = task_identity(task)
    if isinstance(identity, str) and identity.lstrip().startswith("{"):
        try:
            return orjson.loads(identity)
        except orjson.JSONDecodeError:
            pass
    return identity
