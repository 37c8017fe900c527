"""Seed-format tool and interaction configs: load, check, instantiate; and the specs of a manifest's classes.

    tools:
      - class_name: bootcamps.arithmetic.tools.CalculatorTool
        config: {type: native}
        tool_schema: {type: function, function: {name: calculate, description: ..., parameters: {...}}}

    interaction:
      - name: arithmetic_feedback
        class_name: bootcamps.arithmetic.interaction.ArithmeticInteraction
        config: {}
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .classes import dotted_name, load_class
from .config import check_keys, load_yaml
from .errors import ConfigError, RegistryError
from .interaction import Interaction
from .tool import Tool


@dataclass
class ToolSpec:
    """One tool: its class (by dotted path; `cls` when known), its config and its OpenAI function schema."""

    class_name: str
    config: dict[str, Any]
    tool_schema: dict[str, Any]
    source: str = ""
    cls: type | None = field(default=None, compare=False)

    @property
    def name(self) -> str:
        return self.tool_schema["function"]["name"]

    def instantiate(self) -> Tool:
        cls = self.cls or _subclass(self.class_name, Tool, self.source)
        try:
            return cls(config=self.config, tool_schema=self.tool_schema)
        except TypeError:
            return cls(self.config, self.tool_schema)


@dataclass
class InteractionSpec:
    class_name: str
    name: str
    config: dict[str, Any] = field(default_factory=dict)
    source: str = ""
    cls: type | None = field(default=None, compare=False)

    def instantiate(self) -> Interaction:
        cls = self.cls or _subclass(self.class_name, Interaction, self.source)
        return cls(config={**self.config, "name": self.name})


def _subclass(class_name: str, base: type, where: str) -> type:
    """The class at `class_name`, which must subclass `base` (`builtins.print` is a config error, not a crash)."""
    try:
        obj = load_class(class_name)
    except RegistryError as exc:
        raise RegistryError(f"{where + ': ' if where else ''}class_name: {exc}") from None
    if not isinstance(obj, type) or not issubclass(obj, base):
        raise ConfigError(f"{where + ': ' if where else ''}class_name {class_name!r} is not a subclass of "
                          f"bc_common.bootcamp.{base.__name__}")
    return obj


def spec_of_tool(cls: Any, where: str) -> ToolSpec:
    """The spec of a tool class declared in a manifest (its schema is the class's `tool_schema`)."""
    if not isinstance(cls, type) or not issubclass(cls, Tool):
        raise ConfigError(f"{where}: {cls!r} is not a Tool subclass")
    schema = getattr(cls, "tool_schema", None)
    if not schema:
        raise ConfigError(f"{where}: tool class {dotted_name(cls)} declares no tool_schema")
    check_function_schema(schema, f"{where} ({dotted_name(cls)})")
    return ToolSpec(dotted_name(cls), dict(getattr(cls, "default_config", {}) or {}), schema, where, cls)


def spec_of_interaction(cls: Any, where: str) -> InteractionSpec:
    if not isinstance(cls, type) or not issubclass(cls, Interaction):
        raise ConfigError(f"{where}: {cls!r} is not an Interaction subclass")
    name = getattr(cls, "name", "") or cls.__name__
    return InteractionSpec(dotted_name(cls), name, dict(getattr(cls, "default_config", {}) or {}), where, cls)


def tool_config_doc(specs: list[ToolSpec]) -> dict[str, Any]:
    """The seed-format tool config document for `specs`."""
    return {"tools": [{"class_name": s.class_name, "config": dict(s.config) or {"type": "native"},
                       "tool_schema": s.tool_schema} for s in specs]}


def interaction_config_doc(spec: InteractionSpec) -> dict[str, Any]:
    """The seed-format interaction config document for `spec`."""
    return {"interaction": [{"name": spec.name, "class_name": spec.class_name, "config": dict(spec.config)}]}


def check_function_schema(schema: Any, where: str) -> None:
    """Raise ConfigError unless `schema` is a valid OpenAI function-tool schema."""
    if not isinstance(schema, dict):
        raise ConfigError(f"{where}: tool_schema must be a mapping")
    check_keys(schema, {"type", "function"}, where)
    if schema.get("type") != "function":
        raise ConfigError(f"{where}: tool_schema.type must be 'function'")
    fn = schema.get("function")
    if not isinstance(fn, dict):
        raise ConfigError(f"{where}: tool_schema.function must be a mapping")
    check_keys(fn, {"name", "description", "parameters", "strict"}, f"{where}: tool_schema.function")
    name = fn.get("name")
    if not isinstance(name, str) or not name or not all(c.isalnum() or c in "_-" for c in name) or len(name) > 64:
        raise ConfigError(f"{where}: tool name {name!r} must match ^[a-zA-Z0-9_-]{{1,64}}$")
    params = fn.get("parameters", {"type": "object", "properties": {}})
    if not isinstance(params, dict) or params.get("type") != "object":
        raise ConfigError(f"{where}: tool {name!r}: parameters must be a JSON Schema of type 'object'")
    props = params.get("properties", {})
    if not isinstance(props, dict):
        raise ConfigError(f"{where}: tool {name!r}: parameters.properties must be a mapping")
    for req in params.get("required", []) or []:
        if req not in props:
            raise ConfigError(f"{where}: tool {name!r}: required parameter {req!r} is not in properties")
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError

    try:
        Draft202012Validator.check_schema(params)
    except SchemaError as exc:
        raise ConfigError(f"{where}: tool {name!r}: invalid parameters schema: {exc.message}") from None


def load_tool_config(path: str | Path) -> list[ToolSpec]:
    """Read a tool config YAML into specs; errors name the file, the entry and the key."""
    p = Path(path)
    data = load_yaml(p) or {}
    if not isinstance(data, dict):
        raise ConfigError(f"{p}: expected a mapping with a 'tools' list")
    check_keys(data, {"tools"}, str(p))
    tools = data.get("tools") or []
    if not isinstance(tools, list):
        raise ConfigError(f"{p}: 'tools' must be a list")
    specs, seen = [], set()
    for i, entry in enumerate(tools):
        where = f"{p}: tools[{i}]"
        if not isinstance(entry, dict):
            raise ConfigError(f"{where}: expected a mapping")
        check_keys(entry, {"class_name", "config", "tool_schema"}, where)
        if not entry.get("class_name"):
            raise ConfigError(f"{where}: missing key 'class_name'")
        check_function_schema(entry.get("tool_schema"), where)
        spec = ToolSpec(entry["class_name"], dict(entry.get("config") or {}), entry["tool_schema"], where)
        if spec.name in seen:
            raise ConfigError(f"{where}: duplicate tool name {spec.name!r}")
        seen.add(spec.name)
        specs.append(spec)
    return specs


def load_interaction_config(path: str | Path) -> InteractionSpec:
    """Read an interaction config YAML (exactly one interaction)."""
    p = Path(path)
    data = load_yaml(p) or {}
    if not isinstance(data, dict):
        raise ConfigError(f"{p}: expected a mapping with an 'interaction' list")
    check_keys(data, {"interaction"}, str(p))
    items = data.get("interaction") or []
    if isinstance(items, dict):
        items = [items]
    if not isinstance(items, list) or len(items) != 1:
        raise ConfigError(f"{p}: 'interaction' must list exactly one interaction")
    entry = items[0]
    where = f"{p}: interaction[0]"
    if not isinstance(entry, dict):
        raise ConfigError(f"{where}: expected a mapping")
    check_keys(entry, {"name", "class_name", "config"}, where)
    if not entry.get("class_name"):
        raise ConfigError(f"{where}: missing key 'class_name'")
    name = entry.get("name") or entry["class_name"].rsplit(".", 1)[-1]
    return InteractionSpec(entry["class_name"], name, dict(entry.get("config") or {}), where)
