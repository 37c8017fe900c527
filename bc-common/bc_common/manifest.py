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

import importlib.util
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import RegistryError

if TYPE_CHECKING:
    from .bootcamp import InstructionGenerator, Interaction, ReferencePolicy, RewardCalculator, Tool
    from .tool_config import InteractionSpec, ToolSpec


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
    # conformance suite settings: `n` (tasks, default 200), `small_answer_space` (a reason; see bc_common.conformance)
    conformance: dict[str, Any] = field(default_factory=dict)
    source: str = ""  # "package version (entry point ...)", filled by the registry

    available = True

    def __post_init__(self) -> None:
        if self.tools and self.tool_config:
            raise RegistryError(f"bootcamp {self.name or self.description!r}: give tools as classes or as a "
                                "tool_config path, not both")
        if self.interaction and self.interaction_config:
            raise RegistryError(f"bootcamp {self.name or self.description!r}: give the interaction as a class or "
                                "as an interaction_config path, not both")
        unknown = set(self.limits) - {"max_assistant_turns", "max_user_turns", "max_tool_calls_per_turn",
                                      "max_tool_calls"}
        if unknown:
            raise RegistryError(f"bootcamp {self.name!r}: unknown limits {sorted(unknown)}")
        names = [g.name for g in self.groups]
        if len(set(names)) != len(names):
            raise RegistryError(f"bootcamp {self.name!r}: duplicate group names {names}")

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
        from .tool_config import load_tool_config, spec_of_tool

        if self.tool_config:
            return load_tool_config(self.tool_config)
        return [spec_of_tool(cls, f"bootcamp {self.name}: tools[{i}]") for i, cls in enumerate(self.tools)]

    def interaction_spec(self) -> InteractionSpec | None:
        from .tool_config import load_interaction_config, spec_of_interaction

        if self.interaction_config:
            return load_interaction_config(self.interaction_config)
        if self.interaction is None:
            return None
        return spec_of_interaction(self.interaction, f"bootcamp {self.name}: interaction")


@dataclass
class Unavailable:
    """A bootcamp whose optional dependency is missing: listed with the install hint, refused when used."""

    description: str
    extra: str
    missing: list[str]
    name: str = ""
    source: str = ""

    available = False

    @property
    def hint(self) -> str:
        return f"pip install 'bootcamp-harness[{self.extra}]'"

    @property
    def reason(self) -> str:
        return f"needs {', '.join(self.missing)}: {self.hint}"

    def error(self) -> RegistryError:
        return RegistryError(f"bootcamp {self.name!r} is unavailable: it {self.reason}")


def missing_extra(extra: str, modules: list[str], *, description: str) -> Unavailable | None:
    """An `Unavailable` manifest when any of `modules` cannot be imported, else None (nothing is imported).

        bootcamp = missing_extra("battery", ["pybamm"], description="...")
        if bootcamp is None:
            from .generator import ...
            bootcamp = Bootcamp(...)
    """
    missing = []
    for module in modules:
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            missing.append(module)
    return Unavailable(description=description, extra=extra, missing=missing) if missing else None
