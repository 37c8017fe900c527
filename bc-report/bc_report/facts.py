"""What bc-report counts of one trajectory (`Facts`), from a decoded row or straight from its JSONL line.

    facts = facts_of(row)            # a row that passed check_report_row
    facts = decode_line(line)        # the same Facts, or None: decode the line in full instead

`decode_line` parses the whole line with msgspec (grammar, escapes, nesting) but builds Python objects only for
the fields counted, typed narrowly: a line it cannot vouch for (a field of another type or out of range, a bad
byte, a match's seats, a check it does not make) gives None, and the caller decodes it in full, which counts it
or words the error exactly as before. msgspec skips strings without checking their UTF-8, so non-ASCII lines are
checked here. One difference from the full decode remains, by design (as in bc-filter): a number beyond a
double's range (`1e400`) in a field bc-report does not read is valid JSON (RFC 8259 leaves the range to the
reader) and the line is counted; orjson refuses it.
"""
from __future__ import annotations

import math
import sys
from datetime import datetime
from typing import Annotated, Any, Literal, NamedTuple

import msgspec
from msgspec import UNSET, Meta, UnsetType

from bc_common.records import ROLES, STATUSES
from bc_common.stamps import stamp_of, stamp_source

from .rows import MAX_COST, MAX_SAMPLE, MAX_SECONDS, MAX_TOKENS

__all__ = ["Facts", "decode_line", "facts_of"]


class Facts(NamedTuple):
    """The fields of one trajectory that the tables, plots and the browser's sample use."""

    id: str
    task_id: str
    sample: int
    model: str  # "?" when the row names none
    bootcamp: str
    group: str  # extra_info.generator_name, "default" when none
    score: float
    status: str
    passed: bool
    assistant_turns: int
    latencies: list[float]  # one per model call without an error
    tool_names: list[str]  # one per tool call
    tool_errors: list[tuple[str, str]]  # (tool name, error type) per tool call that failed
    prompt_tokens: int
    completion_tokens: int
    cost: float  # nan without one
    wall_s: float  # nan without one
    started: float  # epoch seconds of timing.started_at, nan without one
    stamp: tuple[str, str] | None  # (data_source, code_hash) of a row that carries a code stamp
    match: dict[str, Any] | None  # the row, when MatchTally may count it (a row with seats)


def _d(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _num(value: Any, default: float = 0.0) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return default
    return float(value)


def _sample(row: dict[str, Any]) -> int:
    sample = row.get("sample")
    return sample if isinstance(sample, int) and not isinstance(sample, bool) else 0


def _epoch(text: Any) -> float:
    try:
        return datetime.fromisoformat(text).timestamp() if isinstance(text, str) else math.nan
    except ValueError:
        return math.nan


def facts_of(row: dict[str, Any]) -> Facts:
    """The Facts of a row that passed `check_report_row` (the reference `decode_line` is tested against)."""
    task = _d(row["input"])
    extra = _d(task.get("extra_info"))
    source = str(task.get("data_source", "?"))
    score = _num(row["score"])
    status = row["status"]
    passed = row["success"] if isinstance(row.get("success"), bool) else (status == "completed" and score >= 1.0)
    latencies: list[float] = []
    names: list[str] = []
    errors: list[tuple[str, str]] = []
    for turn in row.get("turns") or ():
        if not isinstance(turn, dict):
            continue
        kind = turn.get("type")
        if kind == "model":
            if turn.get("error") is None:
                latencies.append(_num(turn.get("latency_s")))
        elif kind == "tool":
            name = str(turn.get("name", "?"))
            names.append(name)
            if turn.get("error") is not None:
                errors.append((name, str(_d(turn["error"]).get("type") or "error")))
    usage, timing = _d(row.get("usage")), _d(row.get("timing"))
    assistant = _d(row.get("num_turns")).get("assistant")
    if not isinstance(assistant, int):
        assistant = sum(1 for m in row["messages"] if isinstance(m, dict) and m.get("role") == "assistant")
    stamp = stamp_of(row)
    return Facts(str(row["id"]), str(row["task_id"]), _sample(row),
                 row["model"] if isinstance(row.get("model"), str) else "?",
                 str(extra.get("bootcamp") or source.removeprefix("bootcamp/")),
                 str(extra.get("generator_name") or "default"), score, status, passed, assistant, latencies, names,
                 errors, int(_num(usage.get("prompt_tokens"))), int(_num(usage.get("completion_tokens"))),
                 _num(_d(row.get("cost")).get("usd"), math.nan), _num(timing.get("wall_s"), math.nan),
                 _epoch(timing.get("started_at")),
                 None if stamp is None else (stamp_source(row), stamp["code_hash"]),
                 row if "seats" in row else None)


# The fast path's types: what a usual bc-eval row holds, narrowly, with check_report_row's ranges as constraints;
# anything else fails the decode (then the line is decoded in full). Absent optional keys take defaults that mean
# what an absent key means to facts_of.
_ABSENT = msgspec.Raw()
_Tokens = Annotated[int, Meta(ge=0, le=MAX_TOKENS)]
_Text = Annotated[str, Meta(min_length=1)]


class _Object(msgspec.Struct, gc=False):
    """Any JSON object (its keys are parsed and skipped)."""


class _ToolCall(msgspec.Struct, gc=False):
    function: _Object


_Message = msgspec.defstruct("_Message", [  # check_messages' rules as types
    ("role", Literal[tuple(sorted(ROLES))]),  # type: ignore[misc]
    ("content", str | None | list[_Object], None),
    ("tool_calls", list[_ToolCall] | None, None)], gc=False)


class _Extra(msgspec.Struct, gc=False):
    bootcamp: str | None = None
    generator_name: str | None = None


class _Input(msgspec.Struct, gc=False):
    data_source: str | UnsetType = UNSET
    extra_info: _Extra | None = None


class _Error(msgspec.Struct, gc=False):
    type: str | None = None


# turns by their type (the schema's three; a turn of another type, or none, takes the full decode)
class _ModelTurn(msgspec.Struct, tag_field="type", tag="model", gc=False):
    error: _Error | None = None
    latency_s: float | None = None


class _ToolTurn(msgspec.Struct, tag_field="type", tag="tool", gc=False):
    error: _Error | None = None
    name: str = "?"


class _InteractionTurn(msgspec.Struct, tag_field="type", tag="interaction", gc=False):
    pass


class _Usage(msgspec.Struct, gc=False):
    prompt_tokens: _Tokens | None = None
    completion_tokens: _Tokens | None = None


class _Cost(msgspec.Struct, gc=False):
    usd: Annotated[float, Meta(ge=0, le=MAX_COST)] | None = None


class _Timing(msgspec.Struct, gc=False):
    wall_s: Annotated[float, Meta(ge=0, le=MAX_SECONDS)] | None = None
    started_at: str | None = None


class _NumTurns(msgspec.Struct, gc=False):
    assistant: Annotated[int, Meta(ge=-2**31, lt=2**31)] | None = None  # the column of assistant turns: C ints


_Trajectory = msgspec.defstruct("_Trajectory", [
    ("id", _Text), ("task_id", _Text), ("input", _Input), ("messages", list[_Message]),
    ("score", Annotated[float, Meta(ge=0, le=1)]),
    ("status", Literal[tuple(STATUSES)]),  # type: ignore[misc]
    ("model", str | None, None), ("sample", Annotated[int, Meta(ge=0, le=MAX_SAMPLE)], 0),
    ("success", bool | None, None),
    ("turns", list[_ModelTurn | _ToolTurn | _InteractionTurn] | None, None), ("usage", _Usage | None, None),
    ("cost", _Cost | None, None), ("timing", _Timing | None, None), ("num_turns", _NumTurns | None, None),
    ("code_hash", str | None | UnsetType, UNSET), ("data_source", str | None | UnsetType, UNSET),
    # keys that send the line to the full decode: a match's seats (the ratings read them whole) and a top-level
    # extra_info (where a row without its own code_hash keeps its stamp)
    ("seats", msgspec.Raw, _ABSENT), ("extra_info", msgspec.Raw, _ABSENT)], gc=False)

_decode = msgspec.json.Decoder(_Trajectory).decode
# ValueError covers UnicodeDecodeError; RuntimeError covers RecursionError
_DECODE_ERRORS = (msgspec.DecodeError, msgspec.ValidationError, RuntimeError, ValueError)
_ORJSON_DEPTH = 1024  # orjson refuses arrays and objects nested deeper
_DEEP_LINE = 2 * _ORJSON_DEPTH  # the shortest line nested deeper than that is longer than this
_isfinite = math.isfinite
_new_tuple = tuple.__new__


def decode_line(line: bytes) -> Facts | None:
    """The Facts of a JSONL line, or None when the line needs the full decode (see the module)."""
    try:
        row = _decode(line)
    except _DECODE_ERRORS:
        return None
    if len(line) > _DEEP_LINE and sys.getrecursionlimit() > _ORJSON_DEPTH:
        return None  # msgspec may have accepted a depth orjson refuses: the full decode decides
    if not line.isascii():
        try:
            line.decode()  # msgspec skips strings without checking their UTF-8
        except UnicodeDecodeError:
            return None
    return facts_of_decoded(row)


def facts_of_decoded(row: Any) -> Facts | None:
    """The Facts of a row the narrow types decoded, or None when its line needs the full decode."""
    (rid, task_id, task, messages, score, status, model, sample, success, turns, usage, cost, timing, num_turns,
     code_hash, top_source, seats, top_extra) = msgspec.structs.astuple(row)
    if seats or top_extra:
        return None
    assistant = None if num_turns is None else num_turns.assistant
    if assistant is None:
        assistant = sum(1 for m in messages if m.role == "assistant")
    latencies: list[float] = []
    names: list[str] = []
    errors: list[tuple[str, str]] = []
    if turns:
        latency, name = latencies.append, names.append
        for turn in turns:
            kind = turn.__class__
            if kind is _ModelTurn:
                if turn.error is None:
                    latency(turn.latency_s)
            elif kind is _ToolTurn:
                name(turn.name)
                if turn.error is not None:
                    errors.append((turn.name, turn.error.type or "error"))
        try:  # one pass over the latencies: a null fails the sum, an infinity or nan the test (both count as 0)
            finite = _isfinite(sum(latencies))
        except TypeError:
            finite = False
        if not finite:
            latencies = [x if x is not None and _isfinite(x) else 0.0 for x in latencies]
    prompt_tokens = completion_tokens = 0
    if usage is not None:
        prompt_tokens = usage.prompt_tokens or 0
        completion_tokens = usage.completion_tokens or 0
    usd = wall_s = started = math.nan
    if cost is not None and cost.usd is not None:
        usd = cost.usd
    if timing is not None:
        if timing.wall_s is not None:
            wall_s = timing.wall_s
        if timing.started_at is not None:
            started = _epoch(timing.started_at)
    source = task.data_source
    extra = task.extra_info
    bootcamp = group = None
    if extra is not None:
        bootcamp, group = extra.bootcamp, extra.generator_name
    stamp = None
    if code_hash.__class__ is str:  # stamp_of and stamp_source on the row
        stamp = (source or top_source or "?", code_hash)
    return _new_tuple(Facts, (  # Facts(...) without its Python-level __new__
        rid, task_id, sample, "?" if model is None else model,
        bootcamp or ("?" if source is UNSET else source).removeprefix("bootcamp/"), group or "default",
        score, status, success if success is not None else (status == "completed" and score >= 1.0),
        assistant, latencies, names, errors, prompt_tokens, completion_tokens, usd, wall_s, started, stamp, None))
