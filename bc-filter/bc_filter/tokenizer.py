"""Prompt tokens of a conversation as the model's server would build them: its chat template, then its tokenizer.

    render = prompt_renderer("models/qwen3-8b")          # a folder with tokenizer.json + tokenizer_config.json
    render = prompt_renderer("http://127.0.0.1:8000")    # a server's /tokenize (vLLM, SGLang) or llama.cpp's
    render(messages, tools)                              # -> [151644, 872, ...] (generation prompt included)

A folder is read with `transformers` (`AutoTokenizer.apply_chat_template`: the renderer vLLM and SGLang use, so
the same template gives the same text); a URL asks the server itself, so nothing is re-implemented.
"""
from __future__ import annotations

import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

from bc_common.errors import ConfigError

Renderer = Callable[[list[dict[str, Any]], list[dict[str, Any]]], list[int]]
SENT_KEYS = ("role", "content", "tool_calls", "tool_call_id", "name")  # what bc-eval sends of a message


def sent_messages(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The messages as bc-eval sent them (reasoning and other stored extras are not sent back)."""
    return [{k: m[k] for k in SENT_KEYS if k in m} for m in messages]


def prompt_renderer(spec: str, model: str | None = None, timeout: float = 60.0) -> Renderer:
    """The renderer for `--tokenizer SPEC`: an http(s) URL (a server's /tokenize) or a local tokenizer folder
    (or its tokenizer.json / tokenizer_config.json). ConfigError names the flag when it cannot be used."""
    if spec.startswith(("http://", "https://")):
        return _ServerRenderer(spec, model, timeout)
    return _local_renderer(spec)


def _local_renderer(spec: str) -> Renderer:
    folder = Path(spec)
    if folder.is_file():
        folder = folder.parent
    if not (folder / "tokenizer.json").is_file() and not (folder / "tokenizer_config.json").is_file():
        raise ConfigError(f"--tokenizer {spec}: no tokenizer.json or tokenizer_config.json there (give the model's "
                          "folder, or a server URL with a /tokenize endpoint)")
    try:
        from transformers import AutoTokenizer
    except ImportError:
        raise ConfigError(f"--tokenizer {spec}: a local tokenizer needs transformers "
                          "(pip install 'bootcamp-harness[tokens]'), or give a server URL") from None
    try:
        tokenizer = AutoTokenizer.from_pretrained(str(folder), local_files_only=True)
    except Exception as exc:  # transformers raises many kinds; all mean "cannot load this folder"
        raise ConfigError(f"--tokenizer {spec}: cannot load it ({type(exc).__name__}: {exc})") from None
    if not getattr(tokenizer, "chat_template", None):
        raise ConfigError(f"--tokenizer {spec}: the tokenizer has no chat template (tokenizer_config.json "
                          "'chat_template' or chat_template.jinja)")

    def render(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> list[int]:
        ids = tokenizer.apply_chat_template(sent_messages(messages), tools=tools or None,
                                            add_generation_prompt=True, tokenize=True)
        if isinstance(ids, dict) or hasattr(ids, "keys"):  # newer transformers answer a BatchEncoding
            ids = ids["input_ids"]
        return [int(i) for i in ids]

    return render


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None  # a 3xx is answered as an error: the request does not travel to another address


class _ServerRenderer:
    """A server's own template and tokenizer: `POST /tokenize {messages, tools}` (vLLM, SGLang), or llama.cpp's
    `POST /apply-template` then `POST /tokenize {content}` (its /tokenize takes text only)."""

    def __init__(self, url: str, model: str | None, timeout: float):
        base = url.rstrip("/")
        self.base = base[: -len("/v1")] if base.endswith("/v1") else base
        self.model = model
        self.timeout = timeout
        self.opener = urllib.request.build_opener(_NoRedirect)
        self.llamacpp: bool | None = None  # settled by the first conversation

    def __call__(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> list[int]:
        body: dict[str, Any] = {"messages": sent_messages(messages), "add_generation_prompt": True}
        if tools:
            body["tools"] = tools
        if self.model:
            body["model"] = self.model
        if self.llamacpp is None:  # only llama.cpp has /apply-template
            status, answer = self._post("/apply-template", body)
            self.llamacpp = status == 200 and isinstance(answer, dict) and isinstance(answer.get("prompt"), str)
        if self.llamacpp:
            prompt = self._ok("/apply-template", body).get("prompt")
            answer = self._ok("/tokenize", {"content": prompt, "add_special": True, "parse_special": True})
        else:
            answer = self._ok("/tokenize", {**body, "add_special_tokens": False})
        tokens = answer.get("tokens")
        if not isinstance(tokens, list) or not all(isinstance(t, int) and not isinstance(t, bool) for t in tokens):
            raise ConfigError(f"--tokenizer {self.base}/tokenize: the answer has no 'tokens' list of ids")
        return tokens

    def _ok(self, route: str, body: dict[str, Any]) -> dict[str, Any]:
        status, answer = self._post(route, body)
        if status == 400:  # the server refused this conversation, not the flag
            raise ValueError(f"{self.base}{route} refused this conversation: {str(answer)[:300]}")
        if status != 200 or not isinstance(answer, dict):
            raise ConfigError(f"--tokenizer {self.base}{route}: HTTP {status}: {str(answer)[:300]}")
        return answer

    def _post(self, route: str, body: dict[str, Any]) -> tuple[int, Any]:
        request = urllib.request.Request(self.base + route, data=orjson.dumps(body), method="POST",
                                         headers={"Content-Type": "application/json"})
        try:
            with self.opener.open(request, timeout=self.timeout) as resp:
                return resp.status, _json(resp.read())
        except urllib.error.HTTPError as exc:
            return exc.code, _json(exc.read())
        except (urllib.error.URLError, OSError) as exc:
            raise ConfigError(f"--tokenizer {self.base}: {exc}") from None


def _json(raw: bytes) -> Any:
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
