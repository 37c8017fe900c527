"""Transforms: a trajectory row in, one row (dict), several rows (list) or none (None) out.

    expand_messages_prefixes(row)  # one row per assistant turn, ending on it
    to_sft(row)                    # {"id", "data_source", "messages", "tools", "score"}
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

from bc_common.records import task_id as _task_row_id

from .filters import is_success
from .paths import MISSING, get_path, parse_path

Row = dict[str, Any]

__all__ = [
    "SHAPES", "create_custom_transformer", "create_field_extractor", "expand_messages_prefixes",
    "extract_for_training", "extract_messages", "sft_messages", "strip_row_images", "to_sft", "to_task",
    "turn_tokens",
]


def expand_messages_prefixes(row: Row) -> list[Row]:
    """For each assistant message at position i, a copy of `row` whose messages are messages[:i+1].

    The k-th copy (k = 0, 1, ... over assistant turns) gets the id `<id>@<k>`; other fields are kept.
    """
    messages = row["messages"]
    out = []
    for i, msg in enumerate(messages):
        if isinstance(msg, dict) and msg.get("role") == "assistant":
            out.append({**row, "id": f"{row['id']}@{len(out)}", "messages": messages[: i + 1]})
    return out


expand_messages_prefixes.label = "expand-prefixes"  # type: ignore[attr-defined]


def turn_tokens(row: Row) -> list[dict[str, Any]] | None:
    """The token records of the row's answered model turns, one per assistant message in order (`bc-eval
    --record-tokens`); None when no turn has any."""
    found = [turn.get("tokens") or {} for turn in row.get("turns") or []
             if isinstance(turn, dict) and turn.get("type") == "model" and turn.get("error") is None]
    return found if any(found) else None


def _with_tokens(out: Row, row: Row) -> Row:
    tokens = turn_tokens(row)
    if tokens is not None:
        out["tokens"] = tokens
    return out


def extract_for_training(row: Row) -> Row:
    """The seed's training shape: id, data_source, prompt (the task's), messages, tools (and `tokens`, one
    record per assistant message, when the run recorded them)."""
    task = row["input"]
    return _with_tokens({"id": row["id"], "data_source": task.get("data_source"), "prompt": task.get("prompt"),
                         "messages": row["messages"], "tools": row.get("tools") or []}, row)


extract_for_training.label = "to training"  # type: ignore[attr-defined]


def extract_messages(row: Row) -> Row:
    """Only the conversation: id, messages, score, success."""
    return {"id": row["id"], "messages": row["messages"], "score": row["score"], "success": is_success(row)}


extract_messages.label = "to messages"  # type: ignore[attr-defined]


def _arguments(value: Any) -> str:
    # OpenAI sends arguments as a JSON string; some producers store the parsed object.
    return value if isinstance(value, str) else orjson.dumps(value).decode()


def _sft_message(msg: dict[str, Any]) -> dict[str, Any]:
    content = msg.get("content")
    out: dict[str, Any] = {"role": msg["role"], "content": "" if content is None else content}
    if isinstance(msg.get("reasoning_content"), str):
        out["reasoning_content"] = msg["reasoning_content"]
    if msg.get("tool_calls"):
        out["tool_calls"] = [
            {"id": call.get("id", f"call_{n}"), "type": "function",
             "function": {"name": call["function"]["name"],
                          "arguments": _arguments(call["function"].get("arguments", "{}"))}}
            for n, call in enumerate(msg["tool_calls"])]
    if msg.get("role") == "tool":
        out["tool_call_id"] = msg.get("tool_call_id", "")
        if isinstance(msg.get("name"), str):
            out["name"] = msg["name"]
    return out


def sft_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Clean chat messages for SFT: content always a string (or parts), tool_calls arguments as JSON strings."""
    return [_sft_message(msg) for msg in messages]


def to_sft(row: Row) -> Row:
    """What `bc-train --mode sft` reads (verl multi-turn SFT): id, data_source, messages, tools, score (and
    `tokens` as in `extract_for_training`)."""
    return _with_tokens({"id": row["id"], "data_source": row["input"].get("data_source"),
                         "messages": sft_messages(row["messages"]), "tools": row.get("tools") or [],
                         "score": row["score"]}, row)


to_sft.label = "to sft"  # type: ignore[attr-defined]


def to_task(row: Row) -> Row:
    """The task row the trajectory was run on, verbatim (pair with a dedup on task id)."""
    return row["input"]


to_task.label = "to task"  # type: ignore[attr-defined]


def task_key(task_row: Row) -> str:
    """Dedup key of a task row: its id (or a content hash for rows without one)."""
    return _task_row_id(task_row)


def strip_row_images(row: Row) -> Row:
    """The row without images: image parts dropped from `messages`, `prompt` and `input.prompt` (a content left
    with text only becomes a string), and the seed's `image` field removed. For text-only slices of visual data."""
    from bc_common.images import strip_images  # here (--strip-images only): ~2 ms of every start otherwise

    out = {k: v for k, v in row.items() if k != "image"}
    for key in ("messages", "prompt"):
        if isinstance(out.get(key), list):
            out[key] = strip_images(out[key])
    task = out.get("input")
    if isinstance(task, dict):
        out["input"] = {k: strip_images(v) if k == "prompt" else v for k, v in task.items() if k != "image"}
    return out


strip_row_images.label = "strip images"  # type: ignore[attr-defined]


SHAPES: dict[str, Callable[[Row], Row]] = {
    "training": extract_for_training, "messages": extract_messages, "sft": to_sft, "task": to_task,
}


def create_field_extractor(*paths: str) -> Callable[[Row], Row]:
    """A transform keeping only the given dotted paths, keyed by the path: `{"input.data_source": ...}`.

    Missing fields become null, so every row has the same keys.
    """
    steps = [(path, parse_path(path)) for path in paths]

    def extract(row: Row) -> Row:
        return {path: get_path(row, s, None) for path, s in steps}

    extract.label = "extract " + ",".join(paths)  # type: ignore[attr-defined]
    return extract


def create_custom_transformer(mapping: dict[str, Any]) -> Callable[[Row], Row]:
    """A transform building a new row from `{out_key: spec}`; a spec is a dotted path, a
    `(path, default)` pair, or a function of the row.

        create_custom_transformer({"text": "messages[-1].content", "score": ("score", 0.0),
                                   "pct": lambda r: r["score"] * 100})
    """
    getters: list[tuple[str, Callable[[Row], Any]]] = []
    for key, spec in mapping.items():
        if callable(spec):
            getters.append((key, spec))
            continue
        path, default = spec if isinstance(spec, tuple) else (spec, None)
        getters.append((key, _getter(parse_path(path), default)))

    def transform(row: Row) -> Row:
        return {key: get(row) for key, get in getters}

    transform.label = "custom " + ",".join(mapping)  # type: ignore[attr-defined]
    return transform


def _getter(steps: tuple[str | int, ...], default: Any) -> Callable[[Row], Any]:
    def get(row: Row) -> Any:
        value = get_path(row, steps)
        return default if value is MISSING else value

    return get
