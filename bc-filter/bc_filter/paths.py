"""Dotted field paths (`input.extra_info.split`, `messages[-1].role`) and `--where` conditions.

No expression evaluation: a condition is PATH, one operator, and a literal.

    get_path(row, "messages[-1].role")          # -> "assistant"
    where("input.extra_info.split=train")(row)  # -> True
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import orjson

MISSING: Any = object()  # a path that leads nowhere (distinct from a JSON null)

_SEGMENT = re.compile(r"([^.\[\]]+)?((?:\[-?\d+\])*)")
_INDEX = re.compile(r"\[(-?\d+)\]")
_CONDITION = re.compile(r"^\s*([^=!<>\s]+)\s*(!=|>=|<=|==|=|>|<)\s*(.*?)\s*$", re.S)


def parse_path(path: str) -> tuple[str | int, ...]:
    """Split a dotted path into keys and list indices: `a.b[0]` -> ('a', 'b', 0). Raises ValueError."""
    if not path or path.strip() != path:
        raise ValueError(f"bad field path {path!r}")
    steps: list[str | int] = []
    for part in path.split("."):
        match = _SEGMENT.fullmatch(part)
        if not match or not part:
            raise ValueError(f"bad field path {path!r}")
        name, indices = match.groups()
        if name is not None:
            steps.append(name)
        steps.extend(int(i) for i in _INDEX.findall(indices))
    return tuple(steps)


def get_path(obj: Any, path: str | tuple[str | int, ...], default: Any = MISSING) -> Any:
    """The value at `path` in `obj`, or `default` when a key or index is absent."""
    steps = parse_path(path) if isinstance(path, str) else path
    for step in steps:
        if isinstance(step, int):
            if not isinstance(obj, list) or not -len(obj) <= step < len(obj):
                return default
        elif not isinstance(obj, dict) or step not in obj:
            return default
        obj = obj[step]
    return obj


def parse_literal(text: str) -> Any:
    """A JSON literal when `text` is one (`1`, `0.5`, `true`, `null`, `"x"`), else the text itself."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return text


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _same(actual: Any, value: Any, text: str) -> bool:
    # bools and numbers are different things here (Python says True == 1); a string field also
    # matches the literal text, so `id=123` finds the id "123".
    if isinstance(actual, str) and actual == text:
        return True
    if isinstance(actual, bool) or isinstance(value, bool):
        return type(actual) is type(value) and actual == value
    return actual == value


def where(condition: str) -> Callable[[Any], bool]:
    """A row predicate from `PATH=VALUE`, `PATH!=VALUE` or `PATH>=NUMBER` (also `<=`, `>`, `<`).

    A missing field reads as null for `=`/`!=` (like jq) and fails every numeric comparison.
    Raises ValueError for a malformed condition.
    """
    match = _CONDITION.match(condition)
    if not match:
        raise ValueError(f"bad condition {condition!r}: expected PATH=VALUE, PATH!=VALUE or PATH>=NUMBER")
    path_text, op, text = match.groups()
    steps = parse_path(path_text)
    value = parse_literal(text)

    if op in ("=", "==", "!="):
        negate = op == "!="

        def test(row: Any) -> bool:
            actual = get_path(row, steps, None)
            return _same(actual, value, text) != negate
    else:
        if not _is_number(value):
            raise ValueError(f"bad condition {condition!r}: {op} needs a number, got {text!r}")
        compare = {">=": float.__ge__, "<=": float.__le__, ">": float.__gt__, "<": float.__lt__}[op]
        bound = float(value)

        def test(row: Any) -> bool:
            actual = get_path(row, steps)
            return _is_number(actual) and compare(float(actual), bound)

    test.label = f"where {path_text}{op}{text}"  # type: ignore[attr-defined]
    test.reads = _reads(steps)  # type: ignore[attr-defined]
    test.stateless = True  # type: ignore[attr-defined]  # (filters._labelled)
    return test


def _reads(steps: tuple[str | int, ...]) -> frozenset[str] | None:
    """The keys a path reads up to its first list index (`input.extra_info.split`, `turns`), or None for
    messages (see filters._labelled)."""
    first = steps[0]
    if not isinstance(first, str) or first == "messages":
        return None
    keys: list[str] = []
    for step in steps:
        if not isinstance(step, str):
            break
        keys.append(step)
    return frozenset({".".join(keys)})
