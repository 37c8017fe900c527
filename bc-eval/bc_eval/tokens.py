"""Token ids and logprobs of a model call (`bc-eval --record-tokens`), in each server's dialect.

    token_request("vllm")        # {"logprobs": True, "return_token_ids": True}: what to ask the server for
    answer_tokens(answer)        # {"prompt_ids": [...], "completion_ids": [...], "completion_logprobs": [...]}

vLLM (>= 0.10.2) answers `return_token_ids` with `prompt_token_ids` at the top and `token_ids` in the choice;
SGLang answers `return_prompt_token_ids` / `return_token_ids` with both in the choice; llama.cpp's logprobs carry
each token's `id`, and its prompt ids come from the server's own `/apply-template` + `/tokenize` for the messages
just sent (`llamacpp_prompt_ids`), kept only when their count is the `usage.prompt_tokens` the server reported. Logprobs are `choices[0].logprobs.content[*].logprob` everywhere. Arrays are stored as sent,
one array each (no per-token objects), so a row stays small and `jq` reads it.
"""
from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from bc_common.model import ModelError

# What each profile sends to get them; a --param of the user's wins (profiles.ServerProfile.apply).
TOKEN_REQUESTS: dict[str, dict[str, Any]] = {
    "vllm": {"logprobs": True, "return_token_ids": True},
    "sglang": {"logprobs": True, "return_token_ids": True, "return_prompt_token_ids": True},
    "llamacpp": {"logprobs": True},  # each logprob entry carries the token's id
    "openai": {"logprobs": True},  # logprobs only: the OpenAI API gives no token ids
    "generic": {"logprobs": True},  # an unknown server may refuse fields it does not know
}

FIELDS = ("prompt_ids", "completion_ids", "completion_logprobs")


def token_request(profile: str) -> dict[str, Any]:
    """The request fields that ask a server of `profile` for token ids and logprobs."""
    return dict(TOKEN_REQUESTS.get(profile, TOKEN_REQUESTS["generic"]))


def answer_tokens(answer: Any) -> dict[str, list[Any]] | None:
    """The token arrays of a chat-completions answer (only those it has); None when it has none. A field of the
    wrong shape is an `invalid_response` (a server bug must not pass for a trainable record)."""
    if not isinstance(answer, dict):
        return None
    choices = answer.get("choices")
    choice = choices[0] if isinstance(choices, list) and choices and isinstance(choices[0], dict) else {}
    out: dict[str, list[Any]] = {}
    prompt = choice.get("prompt_token_ids", answer.get("prompt_token_ids"))  # SGLang: the choice; vLLM: the top
    if prompt is not None:
        out["prompt_ids"] = _ids(prompt, "prompt_token_ids")
    content = (choice.get("logprobs") or {}).get("content") if isinstance(choice.get("logprobs"), dict) else None
    if content is not None and not (isinstance(content, list) and all(isinstance(e, dict) for e in content)):
        raise ModelError("invalid_response", "choices[0].logprobs.content is not a list of token objects")
    completion = choice.get("token_ids")
    if completion is not None:
        out["completion_ids"] = _ids(completion, "choices[0].token_ids")
    elif content and all("id" in e for e in content):  # llama.cpp: the id beside each logprob
        out["completion_ids"] = _ids([e["id"] for e in content], "choices[0].logprobs.content[*].id")
    if content:
        out["completion_logprobs"] = _logprobs([e.get("logprob") for e in content])
    return out or None


def _ids(value: Any, name: str) -> list[int]:
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0
                                              for v in value):
        raise ModelError("invalid_response", f"{name} is not a list of token ids (non-negative integers)")
    return value


def _logprobs(values: list[Any]) -> list[float]:
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and v <= 0 for v in values):
        raise ModelError("invalid_response", "choices[0].logprobs.content[*].logprob is not a number <= 0 "
                         "for every token")
    return values


def turn_counts(turns: list[dict[str, Any]]) -> dict[str, int]:
    """How many answered model calls of a trajectory carry each token array (the summary adds them up)."""
    counts = {"model_turns": 0, **{name: 0 for name in FIELDS}}
    for turn in turns:
        if turn.get("type") != "model" or turn.get("error") is not None:
            continue
        counts["model_turns"] += 1
        tokens = turn.get("tokens") or {}
        for name in FIELDS:
            counts[name] += isinstance(tokens.get(name), list)
    return counts


Post = Callable[[str, dict[str, Any]], Awaitable[Any]]  # (route under the server's root, JSON body) -> JSON answer


async def llamacpp_prompt_ids(post: Post, body: dict[str, Any], prompt_tokens: Any) -> list[int] | None:
    """The prompt ids llama-server saw for a chat-completions `body`: its chat template applied by the server
    (`POST /apply-template`), then its tokenizer (`POST /tokenize`, special tokens parsed). Kept only when the
    count equals the `usage.prompt_tokens` it reported for that call (with or without the BOS it adds itself);
    None when they cannot be had, which leaves the turn without prompt ids rather than with wrong ones."""
    if not isinstance(prompt_tokens, int) or isinstance(prompt_tokens, bool):
        return None
    keys = ("messages", "tools", "chat_template_kwargs", "reasoning_format")
    try:
        answer = await post("/apply-template", {**{k: body[k] for k in keys if k in body},
                                                "add_generation_prompt": True})
        prompt = answer.get("prompt") if isinstance(answer, dict) else None
        if not isinstance(prompt, str):
            return None
        for add_special in (True, False):
            answer = await post("/tokenize", {"content": prompt, "add_special": add_special, "parse_special": True})
            ids = answer.get("tokens") if isinstance(answer, dict) else None
            if isinstance(ids, list) and len(ids) == prompt_tokens \
                    and all(isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in ids):
                return ids
    except ModelError:
        return None
    return None
