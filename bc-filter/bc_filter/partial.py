"""Partial decoding for row filters: msgspec checks that a line is a trajectory and decodes only the keys read.

    view = RowView.for_reads({"score", "input.data_source"})
    view.decode(line)  # {'score': 0.95, 'input': {'data_source': 'bootcamp/arithmetic'}}, or None

msgspec parses the whole line (grammar, escapes, nesting) but builds Python objects only for check_trajectory's
rules and the keys read; those keys are decoded by orjson from their own bytes, so a filter sees exactly what the
full decode gives it. msgspec does not check the UTF-8 of the strings it skips, so non-ASCII lines are checked
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
from typing import Any, Literal

import msgspec
import orjson

from bc_common.records import ROLES, STATUSES

__all__ = ["FULL", "RowView", "reads_of"]

FULL = None  # a filter's `reads` when it may look anywhere in the row: partial decoding is off

_ABSENT = msgspec.Raw()  # the default of a key the row may lack: empty bytes, never a JSON value


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
    """Decodes a JSONL line into a dict holding only `reads` (top-level keys, or `input.<key>`), after checking
    it is a trajectory (`check_trajectory`'s rules) and valid JSON."""

    def __init__(self, reads: Iterable[str]):
        reads = set(reads)
        if "messages" in reads:
            raise ValueError("messages are checked, not decoded, by a RowView: read the full row")
        top = sorted(key for key in reads if not key.startswith("input."))
        whole_input = "input" in top
        inner = [] if whole_input else sorted({key.split(".", 2)[1] for key in reads if key.startswith("input.")})
        task: Any = msgspec.Raw if whole_input else msgspec.defstruct(
            "_Input", [(key, msgspec.Raw, _ABSENT) for key in inner], gc=False)
        fields: list[Any] = [("id", msgspec.Raw), ("task_id", msgspec.Raw), ("input", task),
                             ("messages", list[_Message]), ("score", float | int), ("status", _Status)]
        fields += [(key, msgspec.Raw, _ABSENT) for key in top if key not in _REQUIRED]
        self._decode = msgspec.json.Decoder(msgspec.defstruct("_Trajectory", fields, gc=False)).decode
        self._row = _row_builder("score" in top, whole_input, inner, [k for k in top if k not in _BUILT])

    @classmethod
    def for_reads(cls, reads: Iterable[str] | None) -> RowView | None:
        """A view decoding `reads`, or None when they need the full row."""
        if reads is None or "messages" in set(reads):
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


_REQUIRED = ("id", "task_id", "input", "messages", "score", "status")
_BUILT = ("input", "score")  # the row builder handles these itself
_INT_MIN, _UINT_MAX = -(2**63), 2**64 - 1


def _row_builder(score: bool, whole_input: bool, inner: list[str], top: list[str]
                 ) -> Callable[[Any], dict[str, Any]]:
    """A function from a decoded view to the row dict the filters see."""
    loads = orjson.loads

    def row(view: Any) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if score:
            value = view.score
            if value.__class__ is int and not _INT_MIN <= value <= _UINT_MAX:
                value = float(value)  # as orjson reads an integer beyond 64 bits (both round to nearest)
            out["score"] = value
        if whole_input:
            task = loads(memoryview(view.input))
            if task.__class__ is not dict:
                raise ValueError("input is not an object")  # check_trajectory's error words it
            out["input"] = task
        elif inner:
            task = view.input
            out["input"] = {key: loads(memoryview(raw)) for key in inner if (raw := getattr(task, key))}
        for key in top:
            raw = getattr(view, key)
            if key == "status":
                out[key] = raw
            elif raw:  # empty: the row lacks the key
                out[key] = loads(memoryview(raw))
        return out

    return row
