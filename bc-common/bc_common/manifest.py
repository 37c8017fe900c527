"""What a bootcamp package exports: a `Bootcamp` manifest naming its classes, or an `Unavailable` one.

    bootcamp = Bootcamp(
        description="Evaluate + - × ÷ expressions exactly.",
        generator=ArithmeticInstructionGenerator, reward=ArithmeticRewardCalculator, policy=ArithmeticPolicy,
        tools=[CalculatorTool], interaction=ArithmeticInteraction,
        groups=[Group("easy", {"max_terms": 3}, ratio=0.3), Group("hard", {"max_terms": 12}, ratio=0.7)],
    )

The name is the folder's (`bootcamps/<name>/`); a manifest that states another name is an error. Seed-format
YAML configs (tool, interaction, instruction) stay accepted as input and can be written out from a manifest.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import RegistryError
from .extras import DISTRIBUTION, install_hint, missing_modules
from .interaction import Interaction
from .seats import SeatedGame
from .tool import Tool
from .tool_config import (
    InteractionSpec,
    ToolSpec,
    load_interaction_config,
    load_tool_config,
    spec_of_interaction,
    spec_of_tool,
)

if TYPE_CHECKING:  # bc_common.bootcamp re-exports this module: these names are for annotations only
    from .bootcamp import InstructionGenerator, ReferencePolicy, RewardCalculator


# The turn budgets and tool-call caps a manifest may raise (bc-eval's defaults 5, 20, 16, 64), each with its least value
LIMIT_KEYS = {"max_assistant_turns": 1, "max_user_turns": 0, "max_tool_calls_per_turn": 1, "max_tool_calls": 1}
LIMITS_MEANING = ("model calls per trajectory, tool replies and environment replies per trajectory, tool calls "
                  "in one assistant message, tool calls per trajectory")


@dataclass(frozen=True)
class Group:
    """A difficulty group: generator parameters and its share of the rows."""

    name: str
    params: dict[str, Any] = field(default_factory=dict)
    ratio: float = 1.0
    tools: tuple[str, ...] | None = None  # the bootcamp's tools this group's rows offer (None: all of them)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name or "/" in self.name:
            raise ValueError(f"group name {self.name!r} must be a non-empty string without '/'")
        if isinstance(self.ratio, bool) or not isinstance(self.ratio, (int, float)) or self.ratio < 0:
            raise ValueError(f"group {self.name!r}: ratio must be a non-negative number")


DEFAULT_GROUP = Group("default")


@dataclass(frozen=True)
class Baseline:
    """A cheap strategy a model would find first (a constant or most frequent answer, a greedy heuristic, blind
    or random legal play, the tools without the picture), declared so that the conformance suite can show the
    reward does not pay it. It plays through the same rollout loop as any model:
    `bc-eval --model builtin:baseline/NAME` (`builtin:random` is the baseline called `random`).

    `policy` is a `ReferencePolicy` subclass: `respond(messages)` gives the next assistant message; it is made
    anew for every turn with `self.rng`, a `random.Random` keyed by (task, sample, turn), for random play.

        Baseline("greedy", GreedyPolicy, "value/weight greedy, then answer")
        Baseline("tools_only", ToolsOnlyPolicy, "measures with the tools, never looks at the picture", blind=True)

    `blind=True` says the policy never looks at the picture: a visual bootcamp must declare one (the conformance
    suite's `visual_blind_baseline` check), so that its score shows the picture is needed.
    """

    name: str
    policy: type
    about: str = ""
    blind: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not re.fullmatch(r"[a-z0-9][a-z0-9_\-]*", self.name):
            raise ValueError(f"baseline name {self.name!r} must be lower-case letters, digits, '_' or '-'")
        if not isinstance(self.policy, type) or not callable(getattr(self.policy, "respond", None)):
            raise ValueError(f"baseline {self.name!r}: policy must be a class with respond(messages)")


@dataclass
class Bootcamp:
    """A bootcamp's manifest: its classes, its difficulty groups, and where it came from.

    `tools` and `interaction` are classes (the tool schema lives on the tool class). `tool_config`,
    `interaction_config` and `instruction_config` are seed-format YAML paths, for bootcamps that come from a
    seed registry; a manifest gives classes or paths, not both."""

    description: str
    generator: type[InstructionGenerator] | None
    reward: type[RewardCalculator]
    policy: type[ReferencePolicy] | None = None
    tools: list[type[Tool]] = field(default_factory=list)
    interaction: type[Interaction] | None = None
    groups: list[Group] = field(default_factory=list)
    name: str = ""
    tool_config: Path | None = None
    interaction_config: Path | None = None
    instruction_config: Path | None = None
    default_config: dict[str, Any] = field(default_factory=dict)  # parameters applied under every group
    # turn budgets and tool-call caps a task of this bootcamp needs (`max_assistant_turns`, `max_user_turns`,
    # `max_tool_calls_per_turn`, `max_tool_calls`); the harness's defaults (5, 20, 16, 64) apply where this is
    # silent and the user gives none of their own
    limits: dict[str, int] = field(default_factory=dict)
    # conformance suite settings: `n` (tasks, default 200), `small_answer_space` (a reason), `known_issues`, and the
    # signal checks' keys `signal_n`, `distinct_n`, `space_size`, `prompt_space`,
    # `actions`, `label`, `effort`, `hidden_state_tools`
    # (see bc_common.conformance and bc_common.conformance.signal)
    conformance: dict[str, Any] = field(default_factory=dict)
    # the cheap strategies a model would find first (see Baseline); the conformance suite plays each one
    baselines: list[Baseline] = field(default_factory=list)
    # a game for seated models (a bc_common.seats.SeatedGame subclass): `bc-eval --opponent-model` plays it
    seats: type | None = None
    source: str = ""  # "package version (entry point ...)", filled by the registry

    available = True

    def __post_init__(self) -> None:
        if self.tools and self.tool_config:
            raise RegistryError(f"bootcamp {self.name or self.description!r}: give tools as classes or as a "
                                "tool_config path, not both")
        if self.interaction and self.interaction_config:
            raise RegistryError(f"bootcamp {self.name or self.description!r}: give the interaction as a class or "
                                "as an interaction_config path, not both")
        self._check_limits()
        names = [g.name for g in self.groups]
        if len(set(names)) != len(names):
            raise RegistryError(f"bootcamp {self.name!r}: duplicate group names {names}")
        if any(not isinstance(b, Baseline) for b in self.baselines):
            raise RegistryError(f"bootcamp {self.name!r}: baselines must be Baseline(name, policy, about) entries")
        names = [b.name for b in self.baselines]
        if len(set(names)) != len(names):
            raise RegistryError(f"bootcamp {self.name!r}: duplicate baseline names {names}")
        if self.seats is not None and not (isinstance(self.seats, type) and issubclass(self.seats, SeatedGame)
                                           and len(self.seats.seats) >= 2):
            raise RegistryError(f"bootcamp {self.name!r}: seats must be a bc_common.seats.SeatedGame subclass "
                                "naming two or more seats")

    def _check_limits(self) -> None:
        who = f"bootcamp {self.name!r}" if self.name else f"bootcamp {self.description!r}"
        if not isinstance(self.limits, dict):
            raise RegistryError(f"{who}: limits must be a dict of {', '.join(LIMIT_KEYS)} to integers, got "
                                f"{type(self.limits).__name__}")
        for key, value in self.limits.items():
            if key not in LIMIT_KEYS:
                close = difflib.get_close_matches(str(key), LIMIT_KEYS, n=1)
                hint = f"did you mean {close[0]!r}? " if close else ""
                raise RegistryError(f"{who}: unknown limits key {key!r} ({hint}the keys are "
                                    f"{', '.join(LIMIT_KEYS)}: {LIMITS_MEANING})")
            lowest = LIMIT_KEYS[key]
            if isinstance(value, bool) or not isinstance(value, int) or value < lowest:
                raise RegistryError(f"{who}: limits[{key!r}] must be an integer >= {lowest}, got {value!r}")

    def baseline(self, name: str) -> Baseline:
        """The declared baseline called `name`; RegistryError listing the declared ones otherwise."""
        for b in self.baselines:
            if b.name == name:
                return b
        declared = ", ".join(b.name for b in self.baselines) or "none"
        raise RegistryError(f"bootcamp {self.name!r} declares no baseline {name!r} (declared: {declared})")

    @property
    def data_source(self) -> str:
        return f"bootcamp/{self.name}"

    @property
    def package(self) -> str:
        """The package the generator lives in (`bootcamps.arithmetic`)."""
        import sys

        module = self.generator.__module__ if self.generator else self.reward.__module__
        if hasattr(sys.modules.get(module), "__path__"):  # defined in the package's own __init__.py
            return module
        return module.rpartition(".")[0] or module

    def group_list(self) -> list[Group]:
        """The difficulty groups, each with `default_config` under its own parameters; one `default` group when
        the manifest declares none."""
        groups = self.groups or [DEFAULT_GROUP]
        return [Group(g.name, {**self.default_config, **g.params}, g.ratio, g.tools) for g in groups]

    def tool_specs(self) -> list[ToolSpec]:
        """The tools as specs (class, config, schema), from the classes or from the seed-format YAML."""
        if self.tool_config:
            return load_tool_config(self.tool_config)
        return [spec_of_tool(cls, f"bootcamp {self.name}: tools[{i}]") for i, cls in enumerate(self.tools)]

    def interaction_spec(self) -> InteractionSpec | None:
        """The interaction as a spec (class, name, config), from the class or from the seed-format YAML."""
        if self.interaction_config:
            return load_interaction_config(self.interaction_config)
        if self.interaction is None:
            return None
        return spec_of_interaction(self.interaction, f"bootcamp {self.name}: interaction")


INCLUDE_KNOWN_ISSUES = "BC_INCLUDE_KNOWN_ISSUES"  # set to 1: bootcamps withheld for known issues are offered too


def include_known_issues() -> bool:
    """Whether the user opted in to bootcamps withheld for failing the conformance suite (`BC_INCLUDE_KNOWN_ISSUES=1`)."""
    import os

    return os.environ.get(INCLUDE_KNOWN_ISSUES, "").strip() not in ("", "0")


def withheld(description: str, reason: str) -> Unavailable:
    """The manifest of a bootcamp withheld by default because it fails a conformance check, with the reason;
    `BC_INCLUDE_KNOWN_ISSUES=1` offers it anyway (the collection returns the real manifest then)."""
    return Unavailable(description=description, extra="", missing=[],
                       withheld=f"withheld: {reason} (set {INCLUDE_KNOWN_ISSUES}=1 to use it anyway)")


@dataclass
class Unavailable:
    """A bootcamp whose optional dependency is missing: listed with the install hint, refused when used."""

    description: str
    extra: str
    missing: list[str]
    name: str = ""
    source: str = ""
    distribution: str = DISTRIBUTION  # whose extra it is: filled by the catalog for a third-party package
    # withheld for another reason than a missing extra (an adapter's dataset that fails the conformance suite):
    # the reason and how to opt in; `extra` and `missing` are then empty
    withheld: str = ""

    available = False

    @property
    def hint(self) -> str:
        """The install command that works here (an editable install in a clone, PyPI for a wheel), or how to
        opt in to a bootcamp withheld for a known issue."""
        if self.withheld:
            return f"{INCLUDE_KNOWN_ISSUES}=1 opts in"
        return install_hint(self.extra, self.distribution)

    @property
    def reason(self) -> str:
        if self.withheld:
            return self.withheld
        return f"needs {', '.join(self.missing)}: {self.hint}"

    def error(self) -> RegistryError:
        if self.withheld:
            return RegistryError(f"bootcamp {self.name!r} is unavailable: {self.reason}")
        return RegistryError(f"bootcamp {self.name!r} is unavailable: it {self.reason}")


def missing_extra(extra: str, modules: list[str], *, description: str) -> Unavailable | None:
    """An `Unavailable` manifest when any of `modules` cannot be imported, else None (nothing is imported).

        bootcamp = missing_extra("battery", ["pybamm"], description="...")
        if bootcamp is None:
            from .generator import ...
            bootcamp = Bootcamp(...)
    """
    missing = missing_modules(modules)
    return Unavailable(description=description, extra=extra, missing=missing) if missing else None
