"""The seed's run mode (`--seed-compat`, or the seed's `--dataset-path` / `--output-dir`): each trajectory also
carries the seed's `full_context` and `response_context`, and the summary CSV takes the seed's sectioned layout.

The contexts are the seed's text form of the conversation (no tokenizer): `System:` / `User:` / `Assistant:` blocks,
reasoning in `<think>`, tool calls in `<tool_call>`, tool results in `<tool_response>`; image parts become
`<image>` (a context never carries image bytes). They are for the seed's downstream scripts only: the score stays
the verifier on assistant text (the seed graded `response_context`, tool and interaction text included).
"""
from __future__ import annotations

from typing import Any

from bc_common.rollout import prompt_messages


def _text(content: Any) -> str:
    """A message's content as text: a list of parts joins its text parts, an image part is `<image>`."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        out = []
        for part in content:
            if isinstance(part, dict) and part.get("type") == "text":
                out.append(str(part.get("text", "")))
            elif isinstance(part, dict) and part.get("type") in ("image_url", "image"):
                out.append("<image>")
            else:
                out.append(str(part))
        return "\n".join(out)
    return str(content)


def render_context(messages: list[dict[str, Any]]) -> str:
    """The seed's text form of `messages` (its evaluator's format when no tokenizer is given).

    >>> render_context([{"role": "user", "content": "2+2?"}, {"role": "assistant", "content": "4"}])
    'User:\\n2+2?\\nAssistant:\\n4\\n'
    """
    parts = []
    for message in messages:
        role = str(message.get("role", ""))
        content = _text(message.get("content"))
        reasoning = message.get("reasoning_content")
        if isinstance(reasoning, str) and reasoning.strip():
            content = f"<think>\n{reasoning}\n</think>\n\n{content}"
        calls = message.get("tool_calls") if role == "assistant" else None
        if calls:
            listed = "".join(f"Function: {(c.get('function') or {}).get('name', '')}\n"
                             f"Arguments: {(c.get('function') or {}).get('arguments', '')}\n\n" for c in calls)
            content = f"{content}\n<tool_call>\n{listed.strip()}</tool_call>"
        if role == "tool":
            parts.append(f"<tool_response>\n{content}\n</tool_response>\n")
        else:
            parts.append(f"{role.capitalize()}:\n{content}\n")
    return "".join(parts)


def seed_fields(row: dict[str, Any]) -> dict[str, str]:
    """`full_context` (prompt and reply) and `response_context` (everything after the prompt) of a trajectory."""
    messages = row.get("messages") or []
    try:
        prompt_length = len(prompt_messages(row["input"]))
    except (KeyError, TypeError):
        prompt_length = 0
    return {"full_context": render_context(messages), "response_context": render_context(messages[prompt_length:])}
