"""Partial decoding for row filters: msgspec checks that a line is a trajectory and decodes only the keys read.

    view = RowView.for_reads({"score", "input.data_source"})
    view.decode(line)  # {'score': 0.95, 'input': {'data_source': 'bootcamp/arithmetic'}}, or None

msgspec parses the whole line (grammar, escapes, nesting) but builds Python objects only for check_trajectory's
rules and the keys read; a key read whole is decoded by orjson from its own bytes, a deeper path or a key that holds
a scalar by msgspec only where the value is one orjson reads the same (else the line takes the full decode), so a
filter sees exactly what the full decode gives it. msgspec does not check the UTF-8 of the strings it skips, so non-ASCII lines are checked
here. One difference from the full decode remains, by design: a number beyond a double's range (`1e400`) in a
key nothing reads is valid JSON (RFC 8259 leaves the range to the reader) and the line passes as it was read;
orjson refuses it. msgspec's depth limit is the interpreter's recursion limit: where a program raised that past
orjson's (1024), a line long enough to nest deeper goes to the full decode, so both refuse the same lines.
`decode` returns None for a line it cannot vouch for: the caller decodes that line in full,
which accepts it or words the error.
"""
from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import Annotated, Any, Literal

import msgspec
import orjson
from msgspec import UNSET, UnsetType

from bc_common.records import ROLES, STATUSES

__all__ = ["FULL", "RowView", "reads_of"]

FULL = None  # a filter's `reads` when it may look anywhere in the row: partial decoding is off


class _Object(msgspec.Struct, gc=False):
    """Any JSON object (its keys are parsed and skipped)."""


class _ToolCall(msgspec.Struct, gc=False):
    function: _Object


# check_messages' rules as types: a role, content that is a string, null or a list of objects, tool calls
# that are objects with a `function` object
_Message = msgspec.defstruct("_Message", [
    ("role", Literal[tuple(sorted(ROLES))]),  # type: ignore[misc]
    ("content", str | None | list[_Object], None),
    ("tool_calls", list[_ToolCall] | None, None)], gc=False)

_Status = Literal[tuple(STATUSES)]  # type: ignore[misc]
# ValueError covers UnicodeDecodeError and orjson's JSONDecodeError; RuntimeError covers RecursionError
_ORJSON_DEPTH = 1024  # orjson refuses arrays and objects nested deeper
_DEEP_LINE = 2 * _ORJSON_DEPTH  # the shortest line nested deeper than that is longer than this
_DECODE_ERRORS = (msgspec.DecodeError, msgspec.ValidationError, RuntimeError, ValueError)


def reads_of(filters: Iterable[Any]) -> set[str] | None:
    """The keys a list of filters reads (their `reads` attributes), or None when one may read anything."""
    keys: set[str] = set()
    for keep in filters:
        reads = getattr(keep, "reads", FULL)
        if reads is FULL:
            return None
        keys.update(reads)
    return keys


class RowView:
    """Decodes a JSONL line into a dict holding only `reads` (top-level keys, `input.<key>`, or deeper dotted
    paths), after checking it is a trajectory (`check_trajectory`'s rules) and valid JSON.

    A top-level key or a key of `input` is decoded whole (orjson, from its bytes). A deeper path
    (`input.extra_info.bootcamp`, `num_turns.assistant`) is decoded by msgspec as far as it goes: each key on
    the way must hold an object and the last a string, a boolean, null, a finite float or a 64-bit integer (as
    orjson reads them); a row where it holds something else needs the full decode."""

    def __init__(self, reads: Iterable[str]):
        tree = _tree(reads)
        if "messages" in tree:
            raise ValueError("messages are checked, not decoded, by a RowView: read the full row")
        for key in _REQUIRED:  # typed by the trajectory's rules (or never read deeper): whole
            if key != "input" and key in tree:
                tree[key] = _WHOLE
        for key in _SCALAR_KEYS:  # keys that hold a scalar in a trajectory: decoded by msgspec, no orjson call
            if tree.get(key, {}) is _WHOLE:
                tree[key] = _SCALAR
        task: Any = tree.get("input", {})
        if task is not _WHOLE and task.get("data_source", {}) is _WHOLE:
            task["data_source"] = _SCALAR
        input_type: Any = msgspec.Raw if task is _WHOLE else _struct("_Input", task, nested=False)
        # id and task_id need only be there: decoded as any value (a short string as a rule, cheaper than a Raw)
        # unless read
        fields: list[Any] = [("id", msgspec.Raw if "id" in tree else Any),
                             ("task_id", msgspec.Raw if "task_id" in tree else Any), ("input", input_type),
                             ("messages", list[_Message]), ("score", float | int), ("status", _Status)]
        fields += [(key, (_leaf(sub, nested=False) or _struct(f"_{key}", sub, nested=True)) | UnsetType, UNSET)
                   for key, sub in sorted(tree.items()) if key not in _REQUIRED]
        self._decode = msgspec.json.Decoder(msgspec.defstruct("_Trajectory", fields, gc=False)).decode
        top = {key: sub for key, sub in tree.items() if key not in ("input", "score", "status")}
        self._row = _row_builder("score" in tree, task, top, "status" in tree)

    @classmethod
    def for_reads(cls, reads: Iterable[str] | None) -> RowView | None:
        """A view decoding `reads`, or None when they need the full row."""
        if reads is None or "messages" in _tree(reads):
            return None
        return cls(reads)

    def decode(self, line: bytes) -> dict[str, Any] | None:
        """The row's keys that were asked for, or None when the line needs the full decode (see the module)."""
        try:
            view = self._decode(line)
            if len(line) > _DEEP_LINE and sys.getrecursionlimit() > _ORJSON_DEPTH:
                return None  # msgspec may have accepted a depth orjson refuses: the full decode decides
            if not line.isascii():
                line.decode()  # msgspec skips strings without checking their UTF-8
            return self._row(view)
        except _DECODE_ERRORS:
            return None


_WHOLE: Any = None  # a tree's leaf: the key is read whole
_SCALAR: Any = "scalar"  # a tree's leaf at the row's or input's level that holds a scalar (see _SCALAR_KEYS)
_SCALAR_KEYS = ("model", "sample", "success")  # and input.data_source
_INT_MIN, _UINT_MAX = -(2**63), 2**64 - 1
# a deep leaf: what orjson reads the same way (an integer beyond 64 bits is a float to orjson: not vouched for;
# msgspec bounds an int within int64, so one in (2**63, 2**64) takes the full decode too)
_Scalar = str | bool | None | float | Annotated[int, msgspec.Meta(ge=_INT_MIN, le=2**63 - 1)]


def _tree(reads: Iterable[str]) -> dict[str, Any]:
    """Dotted paths as a tree of keys ({"input": {"extra_info": {"bootcamp": _WHOLE}}}); a key read whole
    covers the paths below it."""
    tree: dict[str, Any] = {}
    for path in reads:
        node = tree
        *parents, last = path.split(".")
        for key in parents:
            sub = node.get(key, {})
            if sub is _WHOLE:
                break
            node = node.setdefault(key, sub)
        else:
            node[last] = _WHOLE
    return tree


def _struct(name: str, tree: dict[str, Any], *, nested: bool) -> Any:
    """A Struct of the tree's keys, each optional (UNSET when the row lacks it): a subtree is a Struct again, a
    leaf Raw (decoded whole by orjson) at the row's or input's level, a scalar below (`nested`)."""
    fields = [(key, (_leaf(sub, nested=nested) or _struct(f"{name}_{key}", sub, nested=True)) | UnsetType, UNSET)
              for key, sub in sorted(tree.items())]
    return msgspec.defstruct(name, fields, gc=False)


def _leaf(sub: Any, *, nested: bool) -> Any:
    """The type of a tree's leaf (Raw, or a scalar below the row's and input's level), None for a subtree."""
    if sub is _SCALAR or (sub is _WHOLE and nested):
        return _Scalar
    return msgspec.Raw if sub is _WHOLE else None


_REQUIRED = ("id", "task_id", "input", "messages", "score", "status")


def _row_builder(score: bool, task: Any, top: dict[str, Any], status: bool) -> Callable[[Any], dict[str, Any]]:
    """A function from a decoded view to the row dict the filters see. A nested part (Structs of scalars, UNSET
    where the row lacks a key) becomes dicts in one `msgspec.to_builtins` call; a key read whole, Raw, by orjson."""
    loads, builtins, raw_type = orjson.loads, msgspec.to_builtins, (msgspec.Raw,)
    whole_input = task is _WHOLE
    part_input = not whole_input and bool(task)
    inner = [] if whole_input else [key for key, sub in sorted(task.items()) if sub is _WHOLE]
    top_raw = [key for key, sub in sorted(top.items()) if sub is _WHOLE]
    top_values = [key for key, sub in sorted(top.items()) if sub is _SCALAR]
    top_subs = [key for key, sub in sorted(top.items()) if isinstance(sub, dict)]

    def row(view: Any) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if score:
            value = view.score
            if value.__class__ is int and not _INT_MIN <= value <= _UINT_MAX:
                value = float(value)  # as orjson reads an integer beyond 64 bits (both round to nearest)
            out["score"] = value
        if status:
            out["status"] = view.status
        if whole_input:
            task = loads(memoryview(view.input))
            if task.__class__ is not dict:
                raise ValueError("input is not an object")  # check_trajectory's error words it
            out["input"] = task
        elif part_input:
            part = builtins(view.input, builtin_types=raw_type)
            for key in inner:
                raw = part.get(key)
                if raw is not None:
                    part[key] = loads(memoryview(raw))
            out["input"] = part
        for key in top_raw:
            raw = getattr(view, key)
            if raw is not UNSET:
                out[key] = loads(memoryview(raw))
        for key in top_values:
            value = getattr(view, key)
            if value is not UNSET:
                out[key] = value
        for key in top_subs:
            value = getattr(view, key)
            if value is not UNSET:
                out[key] = builtins(value)
        return out

    return row
