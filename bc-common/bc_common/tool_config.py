"""Seed-format tool and interaction configs: load, check, instantiate.

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

from .bootcamp import Interaction, Tool
from .config import check_keys, load_yaml
from .errors import ConfigError, RegistryError
from .registry import load_class


def _load(class_name: str, base: type, source: str) -> Any:
    """The class a config's class_name names, a subclass of `base`; errors name the config entry."""
    try:
        return load_class(class_name, base)
    except RegistryError as exc:
        raise RegistryError(f"{source}: class_name: {exc}" if source else str(exc)) from None


@dataclass
class ToolSpec:
    class_name: str
    config: dict[str, Any]
    tool_schema: dict[str, Any]
    source: str = ""

    @property
    def name(self) -> str:
        return self.tool_schema["function"]["name"]

    def instantiate(self) -> Tool:
        cls = _load(self.class_name, Tool, self.source)
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

    def instantiate(self) -> Interaction:
        cls = _load(self.class_name, Interaction, self.source)
        return cls(config={**self.config, "name": self.name})


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
