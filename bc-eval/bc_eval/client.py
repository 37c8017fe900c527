"""The model client: OpenAI chat completions over one pooled aiohttp session, with orjson and retries.

Every model (this client, the `openai` SDK adapter, the built-in policies) answers `complete(request)` with a
`ModelReply` holding a clean assistant message, or raises `ModelError` (typed, never carrying secrets).
"""
from __future__ import annotations

import asyncio
import email.utils
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import aiohttp
import orjson

from bc_common.model import ModelError, ModelReply, ModelRequest

T = TypeVar("T")

DEFAULT_BASE_URL = "https://api.openai.com/v1"
_SENT_KEYS = ("role", "content", "tool_calls", "tool_call_id", "name")


def secrets_of(api_key: str | None, headers: dict[str, str] | None) -> list[str]:
    """The strings that must never reach a record: the key and every extra header value (longest first)."""
    values = [api_key or ""] + [str(v) for v in (headers or {}).values()]
    return sorted({v for v in values if len(v) >= 4}, key=len, reverse=True)


def redact(exc: ModelError, secrets: list[str]) -> ModelError:
    """`exc` with every secret cut out of its message (a server or proxy may echo request headers back)."""
    for secret in secrets:
        if secret in exc.message:
            exc.message = exc.message.replace(secret, "[redacted]")
    exc.args = (f"{exc.type}: {exc.message}",)
    return exc


def error_for_status(status: int, body: bytes, retry_after: str | None) -> ModelError:
    """The typed error for a non-2xx answer; 429, 408, 409 and 5xx are retryable."""
    try:
        detail = orjson.loads(body).get("error", {})
        text = detail.get("message") if isinstance(detail, dict) else str(detail)
    except Exception:
        text = None
    text = (text or body[:300].decode("utf-8", "replace") or f"HTTP {status}")[:500]
    kind = {400: "bad_request", 401: "auth_error", 403: "auth_error", 404: "not_found", 413: "bad_request",
            422: "bad_request", 429: "rate_limited"}.get(status, "server_error" if status >= 500 else "http_error")
    retryable = status in (408, 409, 429) or status >= 500
    return ModelError(kind, f"HTTP {status}: {text}", status=status, retryable=retryable,
                      retry_after=parse_retry_after(retry_after))


def parse_retry_after(value: str | None) -> float | None:
    """Seconds from a Retry-After header (delta-seconds or an HTTP date)."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


@dataclass
class RetryPolicy:
    """Exponential backoff with full jitter; a server's Retry-After wins (capped at `max_delay`)."""

    max_retries: int = 5
    base_delay: float = 0.5
    max_delay: float = 30.0

    def delay(self, retry: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(retry_after, self.max_delay)
        return random.uniform(0.5, 1.0) * min(self.max_delay, self.base_delay * 2 ** retry)

    async def run(self, attempt: Callable[[], Awaitable[T]]) -> tuple[T, int]:
        """Call `attempt` until it succeeds or fails for good; returns (result, attempts)."""
        for retry in range(self.max_retries + 1):
            try:
                return await attempt(), retry + 1
            except ModelError as exc:
                exc.attempts = retry + 1
                if not exc.retryable or retry == self.max_retries:
                    raise
                await asyncio.sleep(self.delay(retry, exc.retry_after))
        raise AssertionError("unreachable")


def request_body(model: str, messages: list[dict[str, Any]], tools: list[dict[str, Any]],
                 params: dict[str, Any]) -> dict[str, Any]:
    """The chat-completions body. `extra_body` in params is merged at the top level, as the SDK does."""
    body: dict[str, Any] = {"model": model,
                            "messages": [{k: m[k] for k in _SENT_KEYS if k in m} for m in messages]}
    if tools:
        body["tools"] = tools
    for key, value in params.items():
        if key == "extra_body" and isinstance(value, dict):
            body.update(value)
        else:
            body[key] = value
    return body


def parse_completion(data: Any) -> tuple[dict[str, Any], str | None, dict[str, int] | None]:
    """(clean assistant message, finish_reason, usage) from a chat-completions answer."""
    try:
        choice = data["choices"][0]
        raw = choice["message"]
    except (KeyError, IndexError, TypeError):
        raise ModelError("invalid_response", "the answer has no choices[0].message") from None
    if not isinstance(choice, dict) or not isinstance(raw, dict):
        raise ModelError("invalid_response", "choices[0].message is not an object")
    content = raw.get("content")
    if isinstance(content, list):
        content = "".join(str(p.get("text") or "") for p in content if isinstance(p, dict))
    message: dict[str, Any] = {"role": "assistant", "content": content if isinstance(content, str) else ""}
    raw_calls = raw.get("tool_calls") or []
    if not isinstance(raw_calls, list) or not all(isinstance(c, dict) and isinstance(c.get("function"), dict)
                                                  for c in raw_calls):
        raise ModelError("invalid_response", "choices[0].message.tool_calls is not a list of function calls")
    calls = []
    for call in raw_calls:
        fn = call["function"]
        args = fn.get("arguments")
        if not isinstance(args, str):
            args = "" if args is None else orjson.dumps(args, default=str).decode()
        call_id, name = call.get("id"), fn.get("name")
        calls.append({"id": call_id if isinstance(call_id, str) else "",  # the loop numbers missing ids
                      "type": "function",
                      "function": {"name": name if isinstance(name, str) else "", "arguments": args}})
    if calls:
        message["tool_calls"] = calls
    for key in ("reasoning_content", "reasoning"):
        if isinstance(raw.get(key), str) and raw[key]:
            message["reasoning_content"] = raw[key]
            break
    usage = data.get("usage")
    if isinstance(usage, dict):
        usage = {k: int(usage[k]) for k in ("prompt_tokens", "completion_tokens", "total_tokens")
                 if isinstance(usage.get(k), (int, float)) and not isinstance(usage[k], bool)
                 and abs(usage[k]) < 1e15}
    else:
        usage = None
    finish = choice.get("finish_reason")
    return message, finish if isinstance(finish, str) else None, usage


def chat_url(base_url: str) -> str:
    base = base_url.rstrip("/")
    return base if base.endswith("/chat/completions") else base + "/chat/completions"


class ChatClient:
    """OpenAI chat completions over aiohttp: one session, sized to the concurrency, TLS verified.

        async with ChatClient("http://127.0.0.1:8000/v1", "qwen3-8b", concurrency=256) as client:
            reply = await client.complete(ModelRequest(messages, tools))
    """

    def __init__(self, base_url: str, model: str, *, api_key: str | None = None,
                 headers: dict[str, str] | None = None, params: dict[str, Any] | None = None,
                 timeout: float = 600.0, concurrency: int = 64, retry: RetryPolicy | None = None):
        self.url = chat_url(base_url or DEFAULT_BASE_URL)
        self.base_url = self.url[: -len("/chat/completions")]
        self.model = model
        self.params = dict(params or {})
        self.timeout = aiohttp.ClientTimeout(total=timeout)
        self.concurrency = concurrency
        self.retry = retry or RetryPolicy()
        self._headers = {"Content-Type": "application/json", "Accept": "application/json", **(headers or {})}
        if api_key:
            self._headers["Authorization"] = f"Bearer {api_key}"
        self._secrets = secrets_of(api_key, headers)
        self._session: aiohttp.ClientSession | None = None

    def _open(self) -> aiohttp.ClientSession:
        if self._session is None:
            connector = aiohttp.TCPConnector(limit=self.concurrency, limit_per_host=self.concurrency)
            self._session = aiohttp.ClientSession(connector=connector, headers=self._headers, timeout=self.timeout,
                                                  json_serialize=lambda o: orjson.dumps(o).decode())
        return self._session

    async def complete(self, request: ModelRequest) -> ModelReply:
        data = orjson.dumps(request_body(self.model, request.messages, request.tools, self.params))
        started = time.perf_counter()
        try:
            answer, attempts = await self.retry.run(lambda: self._post(data))
        except ModelError as exc:
            raise redact(exc, self._secrets) from None
        message, finish, usage = parse_completion(answer)
        return ModelReply(message, finish, usage, time.perf_counter() - started, attempts)

    async def _post(self, data: bytes) -> Any:
        session = self._open()
        try:
            async with session.post(self.url, data=data) as resp:  # the session carries the timeout
                body = await resp.read()
                if resp.status >= 300:
                    raise error_for_status(resp.status, body, resp.headers.get("Retry-After"))
        except asyncio.TimeoutError:
            raise ModelError("timeout", f"no answer within {self.timeout.total:g} s", retryable=True) from None
        except aiohttp.ClientError as exc:
            raise ModelError("connection_error", f"{type(exc).__name__}: {exc}", retryable=True) from None
        try:
            return orjson.loads(body)
        except orjson.JSONDecodeError:
            raise ModelError("invalid_response", f"the answer is not JSON: {body[:200]!r}", retryable=True) from None

    async def check(self) -> str:
        """One cheap request (GET /models) proving the endpoint answers; raises ModelError otherwise."""
        try:
            return await self._check()
        except ModelError as exc:
            raise redact(exc, self._secrets) from None

    async def _check(self) -> str:
        session = self._open()
        try:
            async with session.get(self.base_url + "/models", timeout=self.timeout) as resp:
                body = await resp.read()
                if resp.status >= 300:
                    raise error_for_status(resp.status, body, None)
                return f"{self.base_url} answers (HTTP {resp.status})"
        except asyncio.TimeoutError:
            raise ModelError("timeout", f"{self.base_url}: no answer within {self.timeout.total:g} s") from None
        except aiohttp.ClientError as exc:
            raise ModelError("connection_error", f"{self.base_url}: {type(exc).__name__}: {exc}") from None

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None
