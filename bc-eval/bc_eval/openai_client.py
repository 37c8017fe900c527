"""`--client openai`: the same model interface through the official `openai` SDK, for providers with quirks.

Slower than `ChatClient` (the SDK costs far more client CPU per call) but speaks exactly what the SDK speaks.
Retries stay ours (the SDK's own are switched off) so both clients back off the same way.
"""
from __future__ import annotations

import importlib
import time
from typing import Any

import openai

from .client import (
    DEFAULT_BASE_URL,
    ModelError,
    ModelReply,
    ModelRequest,
    RetryPolicy,
    error_for_status,
    parse_completion,
    redact,
    secrets_of,
)

# Parameters the SDK accepts by name; anything else travels in `extra_body`.
_SDK_PARAMS = {"temperature", "top_p", "max_tokens", "max_completion_tokens", "n", "stop", "seed", "tool_choice",
               "parallel_tool_calls", "presence_penalty", "frequency_penalty", "logprobs", "top_logprobs",
               "response_format", "reasoning_effort", "logit_bias", "user", "metadata", "store",
               "service_tier", "stream_options", "extra_body", "extra_headers", "extra_query"}


def _http_client(concurrency: int, timeout: float) -> Any:
    """A pool sized to the concurrency, from the HTTP library this openai release uses (httpx2 for 3.x, httpx
    before); None (the SDK's default pool) when neither is importable."""
    for name in ("httpx2", "httpx"):
        try:
            http = importlib.import_module(name)
        except ImportError:
            continue
        return http.AsyncClient(limits=http.Limits(max_connections=concurrency, max_keepalive_connections=concurrency),
                                timeout=timeout)
    return None


class OpenAIClient:
    """Chat completions through `openai.AsyncOpenAI`."""

    def __init__(self, base_url: str, model: str, *, api_key: str | None = None,
                 headers: dict[str, str] | None = None, params: dict[str, Any] | None = None,
                 timeout: float = 600.0, concurrency: int = 64, retry: RetryPolicy | None = None):
        base = (base_url or DEFAULT_BASE_URL).rstrip("/")
        if base.endswith("/chat/completions"):
            base = base[: -len("/chat/completions")]
        self.model = model
        self.retry = retry or RetryPolicy()
        self._secrets = secrets_of(api_key, headers)
        self.params = {k: v for k, v in (params or {}).items() if k in _SDK_PARAMS}
        extra = {k: v for k, v in (params or {}).items() if k not in _SDK_PARAMS}
        if extra:
            self.params["extra_body"] = {**extra, **self.params.get("extra_body", {})}
        self._client = openai.AsyncOpenAI(
            base_url=base, api_key=api_key or "no-key", default_headers=headers or None, timeout=timeout,
            max_retries=0, http_client=_http_client(concurrency, timeout))

    async def complete(self, request: ModelRequest) -> ModelReply:
        messages = [{k: m[k] for k in ("role", "content", "tool_calls", "tool_call_id", "name") if k in m}
                    for m in request.messages]
        kwargs: dict[str, Any] = dict(self.params)
        if request.tools:
            kwargs["tools"] = request.tools
        started = time.perf_counter()
        try:
            answer, attempts = await self.retry.run(lambda: self._create(messages, kwargs))
        except ModelError as exc:
            raise redact(exc, self._secrets) from None
        message, finish, usage = parse_completion(answer)
        return ModelReply(message, finish, usage, time.perf_counter() - started, attempts)

    async def _create(self, messages: list[dict[str, Any]], kwargs: dict[str, Any]) -> dict[str, Any]:
        try:
            completion = await self._client.chat.completions.create(model=self.model, messages=messages, **kwargs)
        except openai.APIStatusError as exc:
            raise error_for_status(exc.status_code, exc.response.content,
                                   exc.response.headers.get("retry-after")) from None
        except openai.APITimeoutError:
            raise ModelError("timeout", "no answer within the timeout", retryable=True) from None
        except openai.APIConnectionError as exc:
            raise ModelError("connection_error", str(exc), retryable=True) from None
        return completion.model_dump(exclude_none=True)

    async def check(self) -> str:
        try:
            await self._client.models.list()
        except openai.APIError as exc:
            raise redact(ModelError("connection_error", f"{self._client.base_url}: {exc}"), self._secrets) from None
        return f"{self._client.base_url} answers"

    async def aclose(self) -> None:
        await self._client.close()
