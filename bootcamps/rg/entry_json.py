"""A reasoning-gym entry as plain JSON plus the marks that restore it exactly (tuples, int keys, huge ints).

    value, marks = to_json({"n": (3, 10), 7: "x"})  # {"n": [3, 10], "7": "x"}, [[["n"], "tuple"], [[], "int_keys", ["7"]]]
    restore(value, marks) == {"n": (3, 10), 7: "x"}

The JSON stays what `jq` users expect (a tuple is a list); the marks say where Python types differ, so a scorer
that compares `metadata` against tuples or int keys sees the very objects reasoning-gym made.
"""
from __future__ import annotations

import enum
import math
from typing import Any

import orjson

Path = list[Any]  # keys (str) and list positions (int) from the root
INT64 = (-(1 << 63), (1 << 64) - 1)  # what orjson writes as a number


class Unencodable(ValueError):
    """A value with no faithful JSON form (a set, an object): the entry is regenerated at scoring time instead."""


def to_json(value: Any) -> tuple[Any, list[list[Any]]]:
    """(JSON-safe copy of `value`, marks): each mark is `[path, kind]` (kind tuple, int or float) or
    `[path, "int_keys", keys]` (the dict at `path` had these keys as ints)."""
    marks: list[list[Any]] = []
    return _encode(value, [], marks), marks


def _flat(items: list[Any]) -> bool:
    """Does every item encode as itself, with no mark (None, bool, str, a finite float, an int orjson writes)? Then
    the list's copy is the encoding, made in one step (the grids and word lists of reasoning-gym's metadata)."""
    low, high = INT64
    for item in items:
        cls = item.__class__
        if cls is int:
            if not low <= item <= high:
                return False
        elif cls is float:
            if not math.isfinite(item):
                return False
        elif cls is not str and item is not None and cls is not bool:
            return False
    return True


def _encode(value: Any, path: Path, marks: list[list[Any]]) -> Any:
    if value.__class__ is list:
        if _flat(value):
            return list(value)
        if all(item.__class__ is list and _flat(item) for item in value):  # a grid: rows of plain values
            return [list(item) for item in value]
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        if INT64[0] <= value <= INT64[1]:
            return int(value)
        marks.append([path, "int"])
        return str(value)
    if isinstance(value, float):
        if math.isfinite(value):
            return float(value)
        marks.append([path, "float"])
        return repr(float(value))
    if isinstance(value, str):  # a str enum member (aiw's TaskType) as its value: str() would give its name
        return value.value if isinstance(value, enum.Enum) else str(value)
    if isinstance(value, (list, tuple)):
        if isinstance(value, tuple):
            marks.append([path, "tuple"])
        return [_encode(item, path + [i], marks) for i, item in enumerate(value)]
    if isinstance(value, dict):
        out = {}
        int_keys = []
        for key, item in value.items():
            if isinstance(key, bool) or not isinstance(key, (str, int)):
                raise Unencodable(f"dict key {key!r} at {path}")
            text = str(key)
            if text in out:
                raise Unencodable(f"keys {key!r} and {text!r} collide at {path}")
            if not isinstance(key, str):
                int_keys.append(text)
            out[text] = _encode(item, path + [text], marks)
        if int_keys:
            marks.append([path, "int_keys", int_keys])
        return out
    raise Unencodable(f"{type(value).__name__} at {path}")


def restore(value: Any, marks: list[list[Any]]) -> Any:
    """A fresh copy of the value `to_json` was given, from its JSON form and marks (`value` is left alone)."""
    value = orjson.loads(orjson.dumps(value))
    if not marks:
        return value
    root = [value]
    for mark in sorted(marks, key=lambda m: len(m[0]), reverse=True):  # inner values before their containers
        path, kind = mark[0], mark[1]
        parent: Any = root
        key: Any = 0
        for step in path:
            parent, key = parent[key], step
        if kind == "tuple":
            parent[key] = tuple(parent[key])
        elif kind == "int":
            parent[key] = int(parent[key])
        elif kind == "float":
            parent[key] = float(parent[key])
        elif kind == "int_keys":
            ints = set(mark[2])
            parent[key] = {int(k) if k in ints else k: v for k, v in parent[key].items()}
        else:
            raise ValueError(f"unknown mark {kind!r} at {path}")
    return root[0]
