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
    return _encode(value, None, marks), marks


def _flat(items: list[Any] | tuple[Any, ...]) -> bool:
    """Does every item encode as itself, with no mark (None, bool, str, a finite float, an int orjson writes)? Then
    the list's copy is the encoding, made in one step (the grids and word lists of reasoning-gym's metadata). The
    checks run in C: the set of the items' types, then the ints' extremes and the floats' finiteness."""
    kinds = set(map(type, items))
    if not kinds <= _PLAIN:
        return False
    if int in kinds:
        ints = items if len(kinds) == 1 else [item for item in items if item.__class__ is int]
        if min(ints) < INT64[0] or max(ints) > INT64[1]:
            return False
    if float in kinds:
        floats = items if len(kinds) == 1 else [item for item in items if item.__class__ is float]
        if not all(map(math.isfinite, floats)):
            return False
    return True


_PLAIN = frozenset({str, int, float, bool, type(None)})


Where = tuple[Any, Any] | None  # the path to a value, built as (parent's, key) links: a list only when a mark needs it


def _path(where: Where) -> Path:
    keys = []
    while where is not None:
        where, key = where
        keys.append(key)
    return keys[::-1]


def _encode(value: Any, where: Where, marks: list[list[Any]]) -> Any:
    cls = value.__class__
    if cls is str or cls is bool or value is None:  # exact types encode as themselves
        return value
    if cls is int and INT64[0] <= value <= INT64[1]:
        return value
    if cls is list:
        if _flat(value):
            return list(value)
        if all(item.__class__ is list and _flat(item) for item in value):  # a grid: rows of plain values
            return [list(item) for item in value]
    if cls is dict:
        return _encode_dict(value, where, marks)
    if cls is tuple and _flat(value):  # (3, 10): a list and its one mark
        marks.append([_path(where), "tuple"])
        return list(value)
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        if INT64[0] <= value <= INT64[1]:
            return int(value)
        marks.append([_path(where), "int"])
        return str(value)
    if isinstance(value, float):
        if math.isfinite(value):
            return float(value)
        marks.append([_path(where), "float"])
        return repr(float(value))
    if isinstance(value, str):  # a str enum member (aiw's TaskType) as its value: str() would give its name
        return value.value if isinstance(value, enum.Enum) else str(value)
    if isinstance(value, (list, tuple)):
        if isinstance(value, tuple):
            marks.append([_path(where), "tuple"])
        return [_encode(item, (where, i), marks) for i, item in enumerate(value)]
    if isinstance(value, dict):
        return _encode_dict(value, where, marks)
    raise Unencodable(f"{type(value).__name__} at {_path(where)}")


# orjson refuses (rather than converts) subclasses of str, int, dict and list, dataclasses and dates with these
_C_OPTIONS = orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME
_C_DICT = 8  # smaller dicts (a difficulty's ranges: tuples) cost less in Python than a try in C that may fail


def _plain_copy(value: dict[Any, Any] | list[Any]) -> Any:
    """The encoding of a container that is its own JSON form, made in C; None when it is not. orjson's round trip
    refuses int keys, integers past 64 bits, subclasses and other types, and what it converts silently (a tuple to
    a list, NaN and the infinities to null, an enum or a UUID to its value) makes the copy differ from the value.
    The equal copy is the one `_encode` would have built, value for value (the metadata's grids of examples, its
    lists of records: one step instead of one call per value)."""
    try:
        copy = orjson.loads(orjson.dumps(value, option=_C_OPTIONS))
    except orjson.JSONEncodeError:
        return None
    return copy if copy == value else None


def _encode_dict(value: dict[Any, Any], where: Where, marks: list[list[Any]]) -> dict[str, Any]:
    out = {}
    int_keys = []
    low, high = INT64
    for key, item in value.items():
        cls = key.__class__
        if cls is str:
            text = key
        else:
            if isinstance(key, bool) or not isinstance(key, (str, int)):
                raise Unencodable(f"dict key {key!r} at {_path(where)}")
            text = str(key)
        if text in out:
            raise Unencodable(f"keys {key!r} and {text!r} collide at {_path(where)}")
        if cls is not str and not isinstance(key, str):
            int_keys.append(text)
        cls = item.__class__  # what _encode would return, without the call, for the common exact types
        if cls is str or cls is bool or item is None or (cls is int and low <= item <= high):
            out[text] = item
        elif cls is list and _flat(item):
            out[text] = list(item)
        elif (cls is list or (cls is dict and len(item) >= _C_DICT)) and where is not None \
                and (copy := _plain_copy(item)) is not None:  # below the top: a metadata's records, its tables
            out[text] = copy
        elif cls is dict:
            out[text] = _encode_dict(item, (where, text), marks)
        else:
            out[text] = _encode(item, (where, text), marks)
    if int_keys:
        marks.append([_path(where), "int_keys", int_keys])
    return out


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
