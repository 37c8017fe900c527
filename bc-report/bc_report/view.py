"""What the trajectory browser shows of one trajectory: its facts and a timeline of every turn, trimmed to size.

The timeline follows the `turns` events (model call, tool call, interaction reply) and takes each one's text from
`messages`; a record without turns falls back to its messages. Texts are kept as data (the page writes them with
`textContent`); images are kept only as raster `data:` URLs (a remote URL would be fetched at view time), stored
once per report and referenced by key.
"""
from __future__ import annotations

import hashlib
import re
from typing import Any

import orjson

MAX_TEXT = 20_000  # characters of one text shown; the rest is cut with a note
MAX_IMAGE = 2_000_000  # characters of one data URL embedded
_DATA_IMAGE = re.compile(r"data:image/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=\s]*\Z")


def clip(text: Any, limit: int = MAX_TEXT) -> str:
    """`text` as a string of at most `limit` characters (plus a note saying how much was cut)."""
    if not isinstance(text, str):
        text = "" if text is None else _json(text)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}\n… [{len(text) - limit:,} more characters not shown]"


def _json(value: Any) -> str:
    try:
        return orjson.dumps(value, default=str, option=orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS).decode()
    except (TypeError, orjson.JSONEncodeError):
        return repr(value)


def _d(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _l(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


class Images:
    """Data-URL images of the embedded trajectories, each stored once (samples of a task share its images)."""

    def __init__(self) -> None:
        self.by_key: dict[str, str] = {}

    def part(self, url: Any) -> dict[str, Any]:
        """The browser's part for an image URL: a key into the image table, or a note saying why not shown."""
        if not isinstance(url, str):
            return {"note": "image without a URL"}
        if len(url) > MAX_IMAGE:
            return {"note": f"image of {len(url):,} characters not embedded (limit {MAX_IMAGE:,})"}
        if not _DATA_IMAGE.match(url):
            shown = url if len(url) < 120 else url[:117] + "..."
            return {"note": f"image not embedded (only PNG/JPEG/GIF/WebP data URLs are): {shown}"}
        key = hashlib.blake2b(url.encode(), digest_size=8).hexdigest()
        self.by_key.setdefault(key, url)
        return {"image": key}


def content_parts(content: Any, images: Images) -> list[dict[str, Any]]:
    """A message content (string or OpenAI content parts) as browser parts: `{text}`, `{image}`, `{note}`."""
    if isinstance(content, str) or content is None:
        return [{"text": clip(content or "")}]
    parts = []
    for part in _l(content):
        part = _d(part)
        kind = part.get("type")
        if kind == "text" or "text" in part:
            parts.append({"text": clip(part.get("text"))})
        elif kind == "image_url":
            parts.append(images.part(_d(part.get("image_url")).get("url")))
        else:
            parts.append({"note": f"content part of type {clip(kind, 40)!s}", "text": clip(part, 2000)})
    return parts


def _tool_calls(message: dict[str, Any]) -> list[dict[str, str]]:
    calls = []
    for call in _l(message.get("tool_calls")):
        fn = _d(_d(call).get("function"))
        calls.append({"id": clip(_d(call).get("id"), 200), "name": clip(fn.get("name"), 200),
                      "arguments": clip(fn.get("arguments"))})
    return calls


def _assistant_step(message: dict[str, Any], images: Images) -> dict[str, Any]:
    step: dict[str, Any] = {"kind": "assistant", "parts": content_parts(message.get("content"), images)}
    reasoning = message.get("reasoning_content") or message.get("reasoning")
    if reasoning:
        step["reasoning"] = clip(reasoning)
    calls = _tool_calls(message)
    if calls:
        step["tool_calls"] = calls
    return step


def _facts(event: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    out = {}
    for key in keys:
        if key in event and event[key] is not None:
            value = event[key]
            out[key] = value if isinstance(value, (int, float, bool)) else clip(value, 2000)
    return out


def timeline(row: dict[str, Any], images: Images) -> list[dict[str, Any]]:
    """Every turn of a trajectory in order: the prompt, then model calls, tool calls and interaction replies."""
    messages = [_d(m) for m in _l(row.get("messages"))]
    first = next((i for i, m in enumerate(messages) if m.get("role") == "assistant"), len(messages))
    steps: list[dict[str, Any]] = [{"kind": m.get("role", "?"), "parts": content_parts(m.get("content"), images)}
                                   for m in messages[:first]]
    rest = messages[first:]
    turns = [_d(t) for t in _l(row.get("turns"))]
    if not turns:  # a producer that records no events: the conversation alone
        for m in rest:
            step = (_assistant_step(m, images) if m.get("role") == "assistant"
                    else {"kind": clip(m.get("role"), 40), "parts": content_parts(m.get("content"), images)})
            steps.append(step)
        return steps
    assistants = iter([m for m in rest if m.get("role") == "assistant"])
    tool_results = {m.get("tool_call_id"): m for m in rest if m.get("role") == "tool"}
    for event in turns:
        kind = event.get("type")
        if kind == "model":
            message = next(assistants, None) if event.get("error") is None else None
            step = _assistant_step(message, images) if message is not None else {"kind": "assistant", "parts": []}
            usage = _d(event.get("usage"))
            step["facts"] = _facts(event, ("latency_s", "finish_reason", "attempts"))
            step["facts"].update({k: v for k, v in usage.items() if isinstance(v, (int, float))})
        elif kind == "tool":
            result = tool_results.get(event.get("call_id"), {})
            step = {"kind": "tool", "name": clip(event.get("name"), 200),
                    "parts": content_parts(result.get("content"), images),
                    "facts": _facts(event, ("latency_s", "reward"))}
            if _d(event.get("metrics")):
                step["facts"]["metrics"] = clip(event["metrics"], 2000)
        elif kind == "interaction":
            step = {"kind": "interaction", "name": clip(event.get("name"), 200),
                    "parts": [{"text": clip(event.get("text"))}],
                    "facts": _facts(event, ("latency_s", "score", "terminate"))}
            if event.get("extra"):
                step["facts"]["extra"] = clip(event["extra"], 2000)
        else:
            step = {"kind": "event", "parts": [{"text": clip(event, 4000)}]}
        if event.get("error") is not None:
            error = _d(event.get("error"))
            step["error"] = {"type": clip(error.get("type", "error"), 200), "message": clip(error.get("message"), 4000)}
        steps.append(step)
    return steps


def trajectory_view(row: dict[str, Any], facts: dict[str, Any], images: Images, extracted: dict[str, Any]) -> dict:
    """The browser's record of one trajectory: `facts` (run, bootcamp, group, status, score, tool errors...) plus
    its timeline, rewards, usage, timing, ground truth and the verifier's extracted answer."""
    task = _d(row.get("input"))
    view = dict(facts)
    view.update({
        "id": clip(row.get("id"), 300), "model": clip(row.get("model"), 300),
        "error": {k: clip(v, 4000) for k, v in _d(row.get("error")).items()} or None,
        "reward": clip(row.get("reward"), 4000), "usage": clip(row.get("usage"), 2000),
        "timing": clip(row.get("timing"), 2000),
        "ground_truth": clip(_d(task.get("reward_model")).get("ground_truth"), 4000),
        "extracted": extracted,
        "steps": timeline(row, images),
    })
    return view
