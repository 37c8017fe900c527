"""Task rows as verl reads them from parquet (RLHFDataset), and back.

verl wants native columns: `prompt` a list of {role, content} structs, `reward_model` and `extra_info` structs.
Parquet unifies struct columns across rows (a key missing in one row becomes null there; a key whose type
differs between rows fails the write), so every part whose shape depends on the bootcamp is JSON text in a fixed
key `bc_json`: the identity (`reward_model.ground_truth`), each tool's create kwargs, the interaction kwargs, and
the whole original row (`extra_info.bc_json`, its prompt replaced by a marker when the native column holds
it exactly), which
is how `task_row(verl_row(row)) == row` for any row. Every row of a file carries the same tool names.

    rows = verl_rows(task_rows)          # one shape for all rows
    task_row(rows[0]) == task_rows[0]    # the way back
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import orjson

from .records import task_id, task_identity
from .seeding import canonical_json

JSON_KEY = "bc_json"
AGENT_NAME = "bc_agent"
_NATIVE_PROMPT = {JSON_KEY: "prompt"}  # in the stored original: "the prompt column holds it"


def dumps(value: Any) -> str:
    """Canonical JSON text (sorted keys; integers beyond 64 bits kept exact): the harness's one form."""
    return canonical_json(value).decode()


def _exact(value: Any) -> str:
    """JSON text keeping key order (for the original row)."""
    try:
        return orjson.dumps(value).decode()
    except orjson.JSONEncodeError:
        from .jsonl import dumps_wide

        return dumps_wide(value).decode()


def loads_json_field(value: Any) -> Any:
    """Undo `dumps` for a `{bc_json: "..."}` wrapper or a bare JSON string; other values pass through."""
    if isinstance(value, dict) and set(value) == {JSON_KEY}:
        value = value[JSON_KEY]
    if isinstance(value, str):
        from .jsonl import loads

        try:
            return loads(value)
        except orjson.JSONDecodeError:
            return value
    return value


def message_text(content: Any) -> str:
    """A message's content as plain text: text parts joined, other parts (images) left out."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(p.get("text") or "") for p in content if isinstance(p, dict) and p.get("type") == "text")
    return str(content)


def _native_prompt(prompt: Any) -> tuple[list[dict[str, str]], bool]:
    """(the prompt as [{role, content: str}], whether that is exactly the original)."""
    if not isinstance(prompt, list):
        return ([{"role": "user", "content": prompt}] if isinstance(prompt, str) else []), False
    messages = prompt
    native = [{"role": str(m.get("role", "")), "content": message_text(m.get("content"))}
              for m in messages if isinstance(m, dict)]
    exact = len(native) == len(messages) and all(
        set(m) == {"role", "content"} and isinstance(m["role"], str) and isinstance(m["content"], str)
        for m in messages)
    return native, exact


def _int64(value: Any, default: int = 0) -> int:
    ok = type(value) is int and -(1 << 63) <= value < (1 << 63)
    return value if ok else default


def row_tools(row: dict[str, Any]) -> list[str]:
    """The tools a task row may use (the keys of extra_info.tools_kwargs)."""
    kwargs = (row.get("extra_info") or {}).get("tools_kwargs")
    return [str(name) for name in kwargs] if isinstance(kwargs, dict) else []


def verl_prompt(messages: list[dict[str, Any]], base: Any = None,
                where: str = "prompt") -> tuple[list[dict[str, str]], list[bytes]]:
    """verl's multimodal shape: messages with string content where each image stands as `<image>`, and the
    images' bytes in the same order (verl splits the text on `<image>` and pairs the pieces with `images`).
    File references are read relative to `base`; a remote URL or a stored hash is an InputError."""
    from .errors import InputError
    from .images import HASH_PREFIX, PLACEHOLDER, image_bytes, is_image_part, part_url

    out, images = [], []
    for i, msg in enumerate(messages):
        content = msg.get("content")
        if isinstance(content, list):
            text = []
            for j, part in enumerate(content):
                if is_image_part(part):
                    try:
                        url = part_url(part) if part.get("type") == "image_url" else None
                        if url and url.startswith(("http://", "https://")):
                            raise ValueError("a remote image URL; verl needs the bytes (inline it first)")
                        if url and url.startswith(HASH_PREFIX):
                            raise ValueError("only the image's hash was stored (bc-eval --no-store-images)")
                        images.append(image_bytes(url if url is not None else part.get("image"), base)[0])
                    except ValueError as exc:
                        raise InputError(f"{where}[{i}].content[{j}]: {exc}", field=f"{where}[{i}]") from None
                    text.append(PLACEHOLDER)
                elif isinstance(part, dict):
                    text.append(str(part.get("text") or ""))
            content = "".join(text)
        elif isinstance(content, str) and PLACEHOLDER in content:
            raise InputError(f"{where}[{i}]: the text holds a literal {PLACEHOLDER}, which verl would read as an "
                             "image", field=f"{where}[{i}]")
        out.append({**msg, "content": "" if content is None else content})
    return out, images


IMAGES = "images"  # verl's data.image_key: [{"bytes": ...}] in the order of the prompt's <image> placeholders
_IMAGE_REF = "bc-image:"  # in the stored original: "image k of the images column"


def has_image_parts(prompt: Any) -> bool:
    from .images import count_images

    return isinstance(prompt, list) and count_images(prompt) > 0


def _image_prompt(prompt: list[dict[str, Any]], base: Any) -> tuple[list[dict[str, str]], list[dict[str, bytes]],
                                                                     list[dict[str, Any]]]:
    """(native prompt with <image> placeholders, the images column, the original prompt with each image replaced
    by a reference into that column)."""
    from .images import is_image_part

    native, images = verl_prompt(prompt, base)
    refs, k = [], 0
    for msg in prompt:
        content = msg.get("content")
        if isinstance(content, list):
            parts = []
            for part in content:
                if is_image_part(part):  # other keys of the part (e.g. `detail`) are kept
                    box = part.get("image_url") if isinstance(part.get("image_url"), dict) else {}
                    part = {**{key: v for key, v in part.items() if key != "image"}, "type": "image_url",
                            "image_url": {**box, "url": f"{_IMAGE_REF}{k}"}}
                    k += 1
                parts.append(part)
            msg = {**msg, "content": parts}
        refs.append(msg)
    return [{"role": str(m.get("role", "")), "content": m["content"]} for m in native], \
        [{"bytes": b} for b in images], refs


def verl_row(row: dict[str, Any], tool_names: list[str], index: int = 0,
             selection: list[str] | None = None, base: Any = None) -> dict[str, Any]:
    """The verl RL row of a task row. `tool_names`: every tool of the file or run (the same keys in every row);
    `selection` (default: the row's own tools_kwargs keys) the ones this row may use, kept as
    `extra_info.tool_selection`. A prompt with images becomes verl's multimodal row: text with `<image>`
    placeholders and an `images` column of PNG bytes (file references are read relative to `base`)."""
    images = None
    if has_image_parts(row.get("prompt")):
        prompt, images, refs = _image_prompt(row["prompt"], base)
        exact = False
    else:
        prompt, exact = _native_prompt(row.get("prompt"))
    extra = row.get("extra_info") if isinstance(row.get("extra_info"), dict) else {}
    tools_kwargs = extra.get("tools_kwargs") if isinstance(extra.get("tools_kwargs"), dict) else {}
    own = [str(name) for name in (tools_kwargs if selection is None else selection)]
    interaction = extra.get("interaction_kwargs") if isinstance(extra.get("interaction_kwargs"), dict) else {}
    identity = task_identity(row)
    original = dict(row)
    if exact:
        original["prompt"] = _NATIVE_PROMPT  # the native column holds it exactly
    elif images is not None:
        original["prompt"] = refs  # the images column holds the bytes
    data_source = str(row.get("data_source") or "")
    create = {name: (tools_kwargs.get(name) or {}).get("create_kwargs") if isinstance(tools_kwargs.get(name), dict)
              else None for name in tool_names}
    out = {
        "id": row["id"] if isinstance(row.get("id"), str) else task_id(row),
        "data_source": data_source,
        "agent_name": str(row.get("agent_name") or AGENT_NAME),
        "prompt": prompt,
        "reward_model": {"style": str((row.get("reward_model") or {}).get("style") or "rule"),
                         "ground_truth": dumps(identity)},
        "extra_info": {
            "split": str(extra.get("split", "train")),
            "index": _int64(extra.get("index", index), index),
            "bootcamp": str(extra.get("bootcamp") or data_source.split("/", 1)[-1]),
            "generator_name": str(extra.get("generator_name", "")),
            "need_tools_kwargs": bool(own),
            "tool_selection": own,
            # parquet cannot store an empty struct: a file without tools has none
            "tools_kwargs": {name: {"create_kwargs": {JSON_KEY: dumps(
                create[name] if create[name] is not None else ({"identity": identity} if name in own else {}))}}
                for name in tool_names} or None,
            "interaction_kwargs": {"name": str(interaction.get("name", "")), JSON_KEY: dumps(interaction)},
            JSON_KEY: _exact(original),
        },
    }
    if images is not None:
        out[IMAGES] = images
    return out


def verl_rows(rows: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """`verl_row` for every row, with the tool names of all rows (in order of first appearance)."""
    rows = list(rows)
    names = list(dict.fromkeys(name for row in rows for name in row_tools(row)))
    return with_images_column([verl_row(row, names, i) for i, row in enumerate(rows)])


def with_images_column(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every row with an `images` column (empty for text rows) when any row has one: parquet needs one shape."""
    if any(IMAGES in r for r in rows):
        for r in rows:
            r.setdefault(IMAGES, [])
    return rows


def is_verl_row(row: Any) -> bool:
    """True for a row written by `verl_row` (it carries the original in extra_info.bc_json)."""
    extra = row.get("extra_info") if isinstance(row, dict) else None
    return isinstance(extra, dict) and isinstance(extra.get(JSON_KEY), str)


def task_row(row: dict[str, Any]) -> dict[str, Any]:
    """The original task row of a verl row (`verl_row`'s inverse)."""
    from .jsonl import loads

    original = loads(row["extra_info"][JSON_KEY])
    if original.get("prompt") == _NATIVE_PROMPT:
        original["prompt"] = [{"role": m["role"], "content": m["content"]} for m in row.get("prompt") or []]
    elif row.get(IMAGES):
        from .images import data_url, sniff_mime

        images = [item["bytes"] if isinstance(item, dict) else item for item in row[IMAGES]]
        for msg in original.get("prompt") or []:
            for part in msg.get("content") if isinstance(msg.get("content"), list) else []:
                url = (part.get("image_url") or {}).get("url") if isinstance(part, dict) else None
                if isinstance(url, str) and url.startswith(_IMAGE_REF):
                    data = images[int(url[len(_IMAGE_REF):])]
                    part["image_url"]["url"] = data_url(data, sniff_mime(data) or "image/png")
    return original
