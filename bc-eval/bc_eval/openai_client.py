"""`--client openai`: the same model interface through the official `openai` SDK, for providers with quirks.

Slower than `ChatClient` (the SDK costs far more client CPU per call) but speaks exactly what the SDK speaks.
Retries stay ours (the SDK's own are switched off) so both clients back off the same way.
"""
from __future__ import annotations

import importlib
import time
from typing import Any
from urllib.parse import parse_qsl

import openai

from bc_common.redaction import redact_url

from .client import (
    DEFAULT_BASE_URL,
    MAX_RESPONSE_BYTES,
    ModelError,
    ModelReply,
    ModelRequest,
    Profiler,
    RetryPolicy,
    endpoint,
    error_for_status,
    parse_completion,
    redact,
    request_params,
    secrets_of,
    split_base_url,
    too_large,
)
from .decoded_size import ACCEPTED_ENCODINGS, DecodedCounter
from .tokens import answer_tokens, llamacpp_prompt_ids

# Parameters the SDK accepts by name; anything else travels in `extra_body`.
_SDK_PARAMS = {"temperature", "top_p", "max_tokens", "max_completion_tokens", "n", "stop", "seed", "tool_choice",
               "parallel_tool_calls", "presence_penalty", "frequency_penalty", "logprobs", "top_logprobs",
               "response_format", "reasoning_effort", "logit_bias", "user", "metadata", "store",
               "service_tier", "stream_options", "extra_body", "extra_headers", "extra_query"}


class _TooLarge(Exception):
    """Raised inside the HTTP library when an answer is refused while it streams: over the size limit, or in an
    encoding that cannot be counted (the SDK wraps it)."""

    def __init__(self, error: ModelError):
        super().__init__(str(error))
        self.error = error


def _size_hook(limit: int, http: Any) -> Any:
    """An httpx response hook: refuse an announced length over `limit` at once, and cap the body stream on its
    decoded size (what the SDK will hold), so memory stays bounded whatever the server sends, compressed or not."""

    class CappedStream(http.AsyncByteStream):
        def __init__(self, stream: Any, counter: DecodedCounter):
            self.stream = stream
            self.counter = counter

        async def __aiter__(self):
            async for chunk in self.stream:
                try:  # counted before the library decodes the chunk, so an over-limit chunk is never expanded
                    total = self.counter.feed(chunk, limit)
                except ModelError as exc:
                    raise _TooLarge(exc) from None
                if total > limit:
                    raise _TooLarge(too_large(limit))
                yield chunk

        async def aclose(self) -> None:
            await self.stream.aclose()

    async def check(response: Any) -> None:
        length = response.headers.get("content-length")
        if length and length.isdigit() and int(length) > limit:
            raise _TooLarge(too_large(limit, int(length)))
        try:
            counter = DecodedCounter(response.headers.get("content-encoding", ""))
        except ModelError as exc:
            raise _TooLarge(exc) from None
        response.stream = CappedStream(response.stream, counter)
    return check


def _http_client(concurrency: int, timeout: float, max_response_bytes: int = MAX_RESPONSE_BYTES) -> Any:
    """A pool sized to the concurrency, from the HTTP library this openai release uses (httpx2 for 3.x, httpx
    before), that follows no redirects (headers must not travel elsewhere) and refuses oversized answers early;
    None (the SDK's default pool) when neither is importable."""
    for name in ("httpx2", "httpx"):
        try:
            http = importlib.import_module(name)
        except ImportError:
            continue
        return http.AsyncClient(limits=http.Limits(max_connections=concurrency, max_keepalive_connections=concurrency),
                                timeout=timeout, follow_redirects=False,
                                headers={"Accept-Encoding": ACCEPTED_ENCODINGS},
                                event_hooks={"response": [_size_hook(max_response_bytes, http)]})
    return None


class OpenAIClient:
    """Chat completions through `openai.AsyncOpenAI`."""

    def __init__(self, base_url: str, model: str, *, api_key: str | None = None,
                 headers: dict[str, str] | None = None, params: dict[str, Any] | None = None,
                 timeout: float = 600.0, concurrency: int = 64, retry: RetryPolicy | None = None,
                 max_response_bytes: int = MAX_RESPONSE_BYTES, server_profile: str = "auto",
                 record_tokens: bool = False):
        base, query = split_base_url(base_url or DEFAULT_BASE_URL)
        self.record_tokens = record_tokens
        self.model = model
        self.retry = retry or RetryPolicy()
        self._secrets = secrets_of(api_key, headers, endpoint(base, query, ""))
        self.params = dict(params or {})
        self.profiler = Profiler(server_profile)
        self._client = openai.AsyncOpenAI(
            base_url=base, api_key=api_key or "no-key", default_headers=headers or None, timeout=timeout,
            default_query=dict(parse_qsl(query, keep_blank_values=True)) or None,
            max_retries=0, http_client=_http_client(concurrency, timeout, max_response_bytes))

    async def complete(self, request: ModelRequest) -> ModelReply:
        messages = [{k: m[k] for k in ("role", "content", "tool_calls", "tool_call_id", "name") if k in m}
                    for m in request.messages]
        fields = request_params({**self.params, **request.params}, bool(request.tools), self.profiler.profile,
                                self.record_tokens)
        kwargs: dict[str, Any] = {k: v for k, v in fields.items() if k in _SDK_PARAMS}
        extra = {k: v for k, v in fields.items() if k not in _SDK_PARAMS}
        if extra:  # the SDK sends these at the top level of the body, as our own client does
            kwargs["extra_body"] = extra
        if request.tools:
            kwargs["tools"] = request.tools
        started = time.perf_counter()
        try:
            answer, attempts = await self.retry.run(lambda: self._create(messages, kwargs))
        except ModelError as exc:
            raise redact(self.profiler.hint(exc), self._secrets) from None
        self.profiler.from_answer(answer)
        message, finish, usage = parse_completion(answer)
        tokens = answer_tokens(answer) if self.record_tokens else None
        if tokens is not None and "prompt_ids" not in tokens and self.profiler.profile.name == "llamacpp":
            body = {"messages": messages, **({"tools": request.tools} if request.tools else {}), **extra}
            prompt = await llamacpp_prompt_ids(self._post_root, body, (usage or {}).get("prompt_tokens"))
            if prompt is not None:
                tokens = {"prompt_ids": prompt, **tokens}
        return ModelReply(message, finish, usage, time.perf_counter() - started, attempts, tokens)

    async def _post_root(self, route: str, body: dict[str, Any]) -> Any:
        """POST to a route under the server's root (llama-server's /tokenize sits beside /v1, not under it)."""
        base = str(self._client.base_url).rstrip("/")
        root = base[: -len("/v1")] if base.endswith("/v1") else base
        try:
            return await self._client.post(root + route, body=body, cast_to=object)
        except openai.APIStatusError as exc:
            raise error_for_status(exc.status_code, exc.response.content, None, self._secrets,
                                   exc.response.headers.get("location")) from None
        except (openai.APIError, _TooLarge) as exc:
            raise ModelError("connection_error", f"{route}: {type(exc).__name__}") from None

    async def _create(self, messages: list[dict[str, Any]], kwargs: dict[str, Any]) -> dict[str, Any]:
        try:
            completion = await self._client.chat.completions.create(model=self.model, messages=messages, **kwargs)
        except openai.APIStatusError as exc:
            raise error_for_status(exc.status_code, exc.response.content, exc.response.headers.get("retry-after"),
                                   self._secrets, exc.response.headers.get("location")) from None
        except openai.APITimeoutError:
            raise ModelError("timeout", "no answer within the timeout", retryable=True) from None
        except openai.APIConnectionError as exc:
            raise _connection_error(exc, retryable=True) from None
        except _TooLarge as exc:
            raise exc.error from None
        return completion.model_dump(exclude_none=True)

    async def detect_profile(self) -> str:
        """Settle the server profile (`auto`: from GET /models); returns its name."""
        if self.profiler.pending:
            try:
                response = await self._client.get("/models", cast_to=object)
            except (openai.APIError, _TooLarge):
                response = None
            self.profiler.from_models(response)
        return self.profiler.profile.name

    async def check(self) -> str:
        await self.list_models()
        return f"{redact_url(str(self._client.base_url))} answers"

    async def list_models(self) -> list[str]:
        """The model ids the server lists (GET /models); raises ModelError when it cannot be asked."""
        shown = redact_url(str(self._client.base_url))
        try:
            page = await self._client.models.list()
        except openai.APIStatusError as exc:
            raise redact(error_for_status(exc.status_code, exc.response.content, None, self._secrets,
                                          exc.response.headers.get("location")), self._secrets) from None
        except openai.APIError as exc:
            error = _connection_error(exc) if isinstance(exc, openai.APIConnectionError) else \
                ModelError("invalid_response", f"{shown}: {exc}")
            raise redact(error, self._secrets) from None
        except _TooLarge as exc:
            raise exc.error from None
        return [m.id for m in page.data if isinstance(getattr(m, "id", None), str)]

    async def aclose(self) -> None:
        await self._client.close()


def _connection_error(exc: Exception, retryable: bool = False) -> ModelError:
    """A connection failure, or the size limit our HTTP hook enforced (the SDK wraps it as one)."""
    cause: BaseException | None = exc
    for _ in range(8):  # a short walk down the chain of causes (the SDK and httpx each wrap once)
        if cause is None or isinstance(cause, _TooLarge):
            break
        cause = cause.__cause__ or cause.__context__
    if isinstance(cause, _TooLarge):
        return cause.error
    return ModelError("connection_error", str(exc), retryable=retryable)
