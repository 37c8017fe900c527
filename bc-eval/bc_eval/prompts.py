"""The messages a model receives for a task row: its images read, placed and sized (`bc_common.images`).

A row's own image parts are sent as they are when they are inline and within the limits; file references (rows of
`bc-gen --image-dir`) and the seed's `image` field are resolved relative to the dataset file (or `--image-root`),
not the current directory, and never outside that folder. Rows without images cost one scan of their prompt.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from bc_common.images import ImageLimits, dataset_folder, is_image_part, resolve_prompt
from bc_common.rollout import prompt_messages


def has_images(task: dict[str, Any]) -> bool:
    if task.get("image") not in (None, [], ""):
        return True
    prompt = task.get("prompt")
    return isinstance(prompt, list) and any(
        isinstance(m, dict) and isinstance(m.get("content"), list) and any(is_image_part(p) for p in m["content"])
        for m in prompt)


def sent_prompt(record: Any, limits: ImageLimits, image_root: str | None = None) -> list[dict[str, Any]] | None:
    """The prompt to send for `record` (a `bc_common.jsonl.Record`), or None when it has no images (the row's
    prompt is sent as it is). Image paths resolve relative to the dataset file's folder and must lie inside it (or
    inside `image_root`). InputError names FILE:LINE and the part when an image cannot be read or lies outside."""
    task = record.data
    if not has_images(task):
        return None
    root = Path(image_root) if image_root else None
    return resolve_prompt(prompt_messages(task), base=dataset_folder(record.source), root=root,
                          seed_images=task.get("image"),
                          limits=limits, source=record.source, line=record.line)
