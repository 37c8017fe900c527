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
        return [clean_message(m) for m in super()._build_messages(example)]
