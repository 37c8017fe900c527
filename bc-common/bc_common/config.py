"""Typed configuration from YAML: an unknown or misspelled key is an error naming the key and the file."""
from __future__ import annotations

import dataclasses
import difflib
import math
import types
import typing
from pathlib import Path
from typing import Any

import orjson
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
        except Exception as exc:  # a check that trips over a bad value (Decimal("x")) still means a bad value
            given = ", ".join(f"{k}={v!r}" for k, v in values.items()) or "the defaults"
            raise ConfigError(f"{source}: invalid configuration ({given}): {type(exc).__name__}: {exc}") from None
    return obj


def _coerce(value: Any, hint: Any, where: str) -> Any:
    if hint is Any or hint is object:
        return value
    origin = typing.get_origin(hint)
    if value is None:  # `--set key=` and `--set key=null` give None: fine only where the field allows it
        if hint is type(None) or (origin in (typing.Union, types.UnionType) and type(None) in typing.get_args(hint)):
            return None
        raise ConfigError(f"{where}: expected {_type_name(hint)}, got null (an empty `--set key=` is null too)")
    if origin in (typing.Union, types.UnionType):
        for arm in typing.get_args(hint):
            try:
                return _coerce(value, arm, where)
            except ConfigError:
                continue
        raise ConfigError(f"{where}: {value!r} does not fit {_type_name(hint)}")
    if origin in (list, tuple) or hint in (list, tuple):
        if not isinstance(value, (list, tuple)):
            raise ConfigError(f"{where}: expected a list, got {value!r}")
        args = typing.get_args(hint)
        # tuple[int, str]: one hint per position; a one-item tuple[str] whose value has other lengths is read as
        # tuple[str, ...], the way libraries often mean it (reasoning-gym's `variables: tuple[str] = ("x", "y", "z")`)
        if origin is tuple and args and args[-1] is not Ellipsis and (len(args) > 1 or len(value) == 1):
            if len(value) != len(args):
                raise ConfigError(f"{where}: expected {len(args)} items, got {len(value)}")
            items = [_coerce(v, a, f"{where}[{i}]") for i, (v, a) in enumerate(zip(value, args, strict=True))]
        elif args:
            items = [_coerce(v, args[0], f"{where}[{i}]") for i, v in enumerate(value)]
        else:
            items = list(value)
        return tuple(items) if (origin or hint) is tuple else items
    if origin is dict or hint is dict:
        if not isinstance(value, dict):
            raise ConfigError(f"{where}: expected a mapping, got {value!r}")
        args = typing.get_args(hint)
        return {k: _coerce(v, args[1], f"{where}[{k!r}]") for k, v in value.items()} if len(args) == 2 else value
    if hint is float and isinstance(value, (int, float)) and not isinstance(value, bool):
        if not math.isfinite(value):
            raise ConfigError(f"{where}: expected a finite number, got {value!r}")
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


def _type_name(hint: Any) -> str:
    return hint.__name__ if isinstance(hint, type) else str(hint).replace("typing.", "")


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


def parse_json_object(text: str | bytes, where: str) -> dict[str, Any]:
    """JSON text that must be an object (a flag's or a config key's value); ConfigError naming `where` otherwise.

    >>> parse_json_object('{"max_attempts": 3}', "--global-config-overrides")
    {'max_attempts': 3}
    """
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        raise ConfigError(f"{where}: invalid JSON: {exc}") from None
    if not isinstance(value, dict):
        raise ConfigError(f"{where}: expected a JSON object, got {type(value).__name__}")
    return value
