"""Server profiles: what vLLM, SGLang, llama.cpp and the OpenAI API need in a request, and how to tell them apart.

    profile = PROFILES["llamacpp"]
    body = profile.apply(body)            # the profile's defaults under what the user gave, renamed fields
    detect_from_models(listing)           # "vllm" | "sglang" | "llamacpp" | "openai" | None  (GET /models)
    detect_from_answer(answer)            # the same from a chat-completions answer's own fields

Every profile sends `tool_choice: "auto"` when tools are offered (some servers ignore tools without it); a
`--param tool_choice=...` of the user's wins. All four honour `tool_choice: "required"` in their current releases
(docs/bc-eval.md says since when), so no profile rewrites it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

NAMES = ("auto", "generic", "vllm", "sglang", "llamacpp", "openai")


@dataclass(frozen=True)
class ServerProfile:
    """The request defaults of one kind of server (sent unless `--param` gives the field) and its known facts."""

    name: str
    defaults: dict[str, Any] = field(default_factory=dict)
    renames: dict[str, str] = field(default_factory=dict)  # a field this server knows by another name
    tool_flags: str = ""  # what the server must be started with to serve tool calls

    def apply(self, body: dict[str, Any], has_tools: bool) -> dict[str, Any]:
        """`body` with this profile's defaults beneath it and its renames applied. Without tools it carries no
        tool fields, even from --param (servers refuse tool_choice without tools: a mixed run must not fail)."""
        out = {**self.defaults, **body}
        for old, new in self.renames.items():
            if old in out and new not in out:
                out[new] = out.pop(old)
        if not has_tools:
            return {k: v for k, v in out.items() if k not in _TOOL_FIELDS}
        out.setdefault("tool_choice", "auto")
        return out


_TOOL_FIELDS = {"tool_choice", "parallel_tool_calls"}

PROFILES: dict[str, ServerProfile] = {
    # an unknown OpenAI-compatible server: nothing but tool_choice "auto"
    "generic": ServerProfile("generic"),
    # vLLM answers 400 to tool_choice "auto" unless started with the auto-tool-choice flags
    "vllm": ServerProfile("vllm", tool_flags="--enable-auto-tool-choice --tool-call-parser NAME "
                                            "(hermes, llama3_json, mistral, qwen3_coder, ...)"),
    "sglang": ServerProfile("sglang", tool_flags="--tool-call-parser NAME (qwen25, llama3, mistral, deepseekv3, ...)"),
    # llama-server answers one tool call per message unless asked for more (the OpenAI API's default is more)
    "llamacpp": ServerProfile("llamacpp", defaults={"parallel_tool_calls": True},
                              tool_flags="--jinja, with --chat-template-file FILE where the GGUF's own template "
                                         "has no tool support"),
    # the OpenAI API refuses max_tokens for its reasoning models and takes max_completion_tokens from all
    "openai": ServerProfile("openai", renames={"max_tokens": "max_completion_tokens"}),
}


def profile_for(name: str | None) -> ServerProfile:
    return PROFILES.get(name or "generic", PROFILES["generic"])


def detect_from_models(listing: Any) -> str | None:
    """The server kind from a `GET /models` answer: its `owned_by` (vLLM, SGLang, llama.cpp, OpenAI) or the
    fields only one of them adds; None when nothing says."""
    data = listing.get("data") if isinstance(listing, dict) else None
    if not isinstance(data, list):
        return None
    for entry in data:
        if not isinstance(entry, dict):
            continue
        owner = str(entry.get("owned_by") or "").lower()
        if owner in ("vllm", "sglang", "llamacpp"):
            return owner
        if owner in ("openai", "system", "openai-internal") or owner.startswith("openai"):
            return "openai"
        if "max_model_len" in entry:  # vLLM's own field
            return "vllm"
        if isinstance(entry.get("meta"), dict) and "n_ctx_train" in entry["meta"]:  # llama.cpp's model metadata
            return "llamacpp"
    if isinstance(listing.get("models"), list):  # llama-server answers in two shapes at once
        return "llamacpp"
    return None


def detect_from_answer(answer: Any) -> str | None:
    """The server kind from a chat-completions answer's own fields (`timings`: llama.cpp; `matched_stop`:
    SGLang; `prompt_logprobs`/`kv_transfer_params`: vLLM; a `fp_` system fingerprint: OpenAI)."""
    if not isinstance(answer, dict):
        return None
    if isinstance(answer.get("timings"), dict):
        return "llamacpp"
    choices = answer.get("choices")
    choice = choices[0] if isinstance(choices, list) and choices and isinstance(choices[0], dict) else {}
    if "matched_stop" in choice:
        return "sglang"
    if "prompt_logprobs" in answer or "kv_transfer_params" in answer or "stop_reason" in choice:
        return "vllm"
    if str(answer.get("system_fingerprint") or "").startswith("fp_"):
        return "openai"
    return None
