"""verl's multi-turn SFT dataset, reading bc-train's parquet (JSON text where shapes vary).

Our SFT parquet keeps tool-call arguments and tool schemas as JSON text so every row has the same parquet
shape; this subclass (`data.custom_cls`) turns them back into objects before the chat template sees them,
and drops the empty `tool_calls` / `tool_call_id` placeholders of messages that have none.
"""
from __future__ import annotations

from typing import Any

from verl.utils.dataset.multiturn_sft_dataset import MultiTurnSFTDataset

from .parquet_rows import loads_json_field


def clean_message(message: dict[str, Any]) -> dict[str, Any]:
    """A chat message as chat templates expect it (tool-call arguments as objects, no empty placeholders)."""
    out = {"role": message["role"], "content": message.get("content") or ""}
    calls = [c for c in (message.get("tool_calls") or []) if c]
    if calls:
        out["tool_calls"] = [{"id": c.get("id") or f"call_{i}", "type": "function",
                              "function": {"name": c["function"]["name"],
                                           "arguments": loads_json_field(c["function"].get("arguments") or "{}")}}
                             for i, c in enumerate(calls)]
    if message.get("tool_call_id"):
        out["tool_call_id"] = message["tool_call_id"]
    return out


class BcMultiTurnSFTDataset(MultiTurnSFTDataset):
    """`MultiTurnSFTDataset` over bc-train SFT parquet."""

    def _read_files_and_process(self) -> None:
        super()._read_files_and_process()
        if self.tools is not None:
            self.tools = [loads_json_field(t) or None for t in self.tools]

    def _build_messages(self, example: dict) -> list[dict[str, Any]]:
        images = example.get(self.image_key)
        if self.processor is not None and images is not None and len(images):
            return [clean_message(m) for m in self._image_messages(example, images)]
        return [clean_message(m) for m in super()._build_messages(example)]

    def _image_messages(self, example: dict, images: Any) -> list[dict[str, Any]]:
        """verl's placeholder expansion (`<image>` -> an image part, in order), with the images opened by PIL as
        verl's RLHFDataset does: verl's SFT path goes through qwen_vl_utils, which cannot import without
        torchvision, and the processor resizes to its patch grid anyway."""
        import re
        from io import BytesIO

        from PIL import Image
        from verl.utils.py_functional import convert_nested_value_to_list_recursive

        messages = convert_nested_value_to_list_recursive(example[self.messages_key])
        pictures = [Image.open(BytesIO(item["bytes"])).convert("RGB") for item in images]
        used = 0
        for message in messages:
            content = message["content"]
            if not isinstance(content, str):
                continue
            parts = []
            for piece in re.split("(<image>)", content):
                if piece == "<image>":
                    if used >= len(pictures):
                        raise ValueError(f"more <image> placeholders than images ({len(pictures)})")
                    parts.append({"type": "image", "image": pictures[used]})
                    used += 1
                elif piece:
                    parts.append({"type": "text", "text": piece})
            message["content"] = parts
        if used != len(pictures):
            raise ValueError(f"{len(pictures)} images but {used} <image> placeholders")
        return messages
