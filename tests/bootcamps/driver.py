"""Plays a bootcamp's reference policy on a task row through its tools and interaction, without a model."""
from __future__ import annotations

from typing import Any

from bc_common.bootcamp import Bootcamp
from bc_common.reference import play_reference_sync


def play(bootcamp: Bootcamp, row: dict[str, Any], *, wrong: bool = False, max_steps: int = 12) -> list[dict]:
    """The message list of one episode played by the reference policy (wrong answers when `wrong`)."""
    extra = row.get("extra_info", {})
    inter = extra.get("interaction_kwargs") or {}
    messages, _finished = play_reference_sync(
        bootcamp, row["reward_model"]["ground_truth"], row["prompt"],
        tools_kwargs=extra.get("tools_kwargs") or {}, interaction=bool(inter),
        interaction_identity=inter.get("identity"), wrong=wrong, max_steps=max_steps)
    return messages
