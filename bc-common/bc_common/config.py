"""Typed configuration from YAML: an unknown or misspelled key is an error naming the key and the file."""
from __future__ import annotations

import dataclasses
import difflib
import types
import typing
from pathlib import Path
from typing import Any

import yaml

from .errors import ConfigError


def load_yaml(path: str | Path) -> Any:
    """Parse a YAML file; errors name the file (and line, when YAML knows it)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{p}: cannot read: {exc.strerror or exc}") from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{p}:{mark.line + 1}" if mark else str(p)
        raise ConfigError(f"{where}: invalid YAML: {getattr(exc, 'problem', exc)}") from None


def unknown_key_error(key: str, allowed: typing.Iterable[str], where: str) -> ConfigError:
    allowed = sorted(allowed)
    close = difflib.get_close_matches(key, allowed, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else f" (allowed: {', '.join(allowed) or 'none'})"
    return ConfigError(f"{where}: unknown key {key!r}{hint}")


def check_keys(data: dict, allowed: typing.Iterable[str], where: str) -> None:
    """Raise ConfigError on the first key of `data` not in `allowed`."""
    allowed = set(allowed)
    for key in data:
        if key not in allowed:
            raise unknown_key_error(str(key), allowed, where)


def build_dataclass(cls: type, data: dict[str, Any] | None, source: str = "<config>") -> Any:
    """Build dataclass `cls` from a dict, refusing unknown keys and values of the wrong type.

    >>> build_dataclass(ArithmeticConfig, {"min_terms": 2}, source="configs/x.yaml")
    """
    data = dict(data or {})
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: expected a mapping, got {type(data).__name__}")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    check_keys(data, fields, source)
    hints = typing.get_type_hints(cls)
    values = {}
    for key, value in data.items():
        values[key] = _coerce(value, hints.get(key, Any), f"{source}: key {key!r}")
    try:
        obj = cls(**values)
    except TypeError as exc:
        raise ConfigError(f"{source}: {exc}") from None
    validate = getattr(obj, "validate", None)
    if callable(validate):
        try:
            validate()
        except (ValueError, AssertionError) as exc:
            raise ConfigError(f"{source}: {exc}") from None
    return obj


def _coerce(value: Any, hint: Any, where: str) -> Any:
    if hint is Any or value is None:
        return value
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        for arm in typing.get_args(hint):
            try:
                return _coerce(value, arm, where)
            except ConfigError:
                continue
        raise ConfigError(f"{where}: {value!r} does not fit {hint}")
    if origin in (list, tuple):
        if not isinstance(value, (list, tuple)):
            raise ConfigError(f"{where}: expected a list, got {value!r}")
        return list(value) if origin is list else tuple(value)
    if origin is dict:
        if not isinstance(value, dict):
            raise ConfigError(f"{where}: expected a mapping, got {value!r}")
        return value
    if hint is float and isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if hint is int and isinstance(value, int) and not isinstance(value, bool):
        return value
    if hint is bool and isinstance(value, bool):
        return value
    if hint is str and isinstance(value, str):
        return value
    if hint in (int, float, bool, str):
        raise ConfigError(f"{where}: expected {hint.__name__}, got {value!r}")
    return value


def parse_scalar(text: str) -> Any:
    """`--set key=value` values: YAML scalars (`3`, `0.5`, `true`, `[1, 2]`), else the string."""
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError:
        return text


def parse_assignments(pairs: typing.Iterable[str], flag: str = "--set") -> dict[str, Any]:
    """Parse `key=value` pairs into a dict (dotted keys stay dotted)."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"{flag} {pair!r}: expected key=value")
        out[key.strip()] = parse_scalar(value)
    return out
