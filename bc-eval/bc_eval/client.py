"""The model client: OpenAI chat completions over one pooled aiohttp session, with orjson and retries.

Every model (this client, the `openai` SDK adapter, the built-in policies) answers `complete(request)` with a
`ModelReply` holding a clean assistant message, or raises `ModelError` (typed, never carrying secrets).
"""
from __future__ import annotations

import asyncio
import email.utils
import random
import re
import sys
import time
import urllib.request
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import aiohttp
import orjson

from bc_common.http1 import BadEncoding, ConnectFailed, Dropped, Pool, TooLarge
from bc_common.model import ModelError, ModelReply, ModelRequest
from bc_common.redaction import clip, redact_text, redact_url, secret_values

from .profiles import ServerProfile, detect_from_answer, detect_from_models, profile_for
from .tokens import answer_tokens, llamacpp_prompt_ids, token_request

T = TypeVar("T")

DEFAULT_BASE_URL = "https://api.openai.com/v1"
MAX_RESPONSE_BYTES = 32 << 20  # a chat completion is kilobytes; 32 MiB leaves room for logprobs and long outputs
MAX_TOKENS = 10**9  # a usage count above this is no real count (the largest contexts are ~10^7 tokens)
_SENT_KEYS = ("role", "content", "tool_calls", "tool_call_id", "name")
_READ_CHUNK = 1 << 16
_PLAIN_TARGET = re.compile(r"[A-Za-z0-9._~/%!$&'()*+,;=:@?-]*\Z")  # a path and query sent as written
_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+\Z")  # a header name (RFC 9110 token)
_OWN_HEADERS = {"host", "content-length", "transfer-encoding", "connection", "user-agent", "expect", "te",
                "upgrade", "accept-encoding", "proxy-authorization"}
_USER_AGENT = f"Python/{sys.version_info[0]}.{sys.version_info[1]} bc-eval"


def secrets_of(api_key: str | None, headers: dict[str, str] | None, base_url: str | None = None) -> list[str]:
    """The strings that must never reach a record: the key, every extra header value, the URL's credentials."""
    return secret_values(api_key, headers, base_url)


def redact(exc: ModelError, secrets: list[str]) -> ModelError:
    """`exc` with every secret cut out of its message (a server or proxy may echo request headers back)."""
    exc.message = redact_text(exc.message, secrets)
    exc.args = (f"{exc.type}: {exc.message}",)
    return exc


def error_for_status(status: int, body: bytes, retry_after: str | None, secrets: list[str] | None = None,
                     location: str | None = None) -> ModelError:
    """The typed error for a non-2xx answer; 429, 408, 409 and 5xx are retryable. Secrets are cut out before
    the text is shortened (a secret straddling the cut would leak half of itself)."""
    if 300 <= status < 400:
        where = f" to {redact_url(location)}" if location else ""
        return ModelError("redirect", f"HTTP {status}: the server redirects{where}; redirects are not followed "
                          "(headers and keys must not travel to another address): give the final URL",
                          status=status)
    try:
        detail = orjson.loads(body).get("error", {})
        text = detail.get("message") if isinstance(detail, dict) else str(detail)
    except Exception:
        text = None
    if not isinstance(text, str) or not text:
        text = body[:64 * 1024].decode("utf-8", "replace") or f"HTTP {status}"
    text = clip(text, secrets or [], 500)
    kind = {400: "bad_request", 401: "auth_error", 403: "auth_error", 404: "not_found", 413: "bad_request",
            422: "bad_request", 429: "rate_limited"}.get(status, "server_error" if status >= 500 else "http_error")
    retryable = status in (408, 409, 429) or status >= 500
    return ModelError(kind, f"HTTP {status}: {text}", status=status, retryable=retryable,
                      retry_after=parse_retry_after(retry_after))


def too_large(limit: int, size: int | None = None) -> ModelError:
    """The typed error for an answer over the size limit (not retried: the same request gives the same answer)."""
    said = f"announces {size} bytes" if size is not None else "is still streaming"
    return ModelError("response_too_large", f"the answer {said}; the limit is {limit} bytes "
                      "(--max-response-mb)")


async def read_capped(resp: aiohttp.ClientResponse, limit: int) -> bytes:
    """The body of `resp`, refused as soon as it passes `limit` bytes (memory stays bounded: a 200 MB answer
    is never held). A plain body of announced length is read in one go (the fast path)."""
    length = resp.content_length
    if length is not None and length > limit:
        raise too_large(limit, length)
    if length is not None and resp.headers.get("Content-Encoding", "identity") == "identity":
        return await resp.read()
    chunks, total = [], 0  # chunked or compressed: count what decompresses, not what the header says
    async for chunk in resp.content.iter_chunked(_READ_CHUNK):
        total += len(chunk)
        if total > limit:
            raise too_large(limit)
        chunks.append(chunk)
    return b"".join(chunks)


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


def request_params(params: dict[str, Any], has_tools: bool, profile: ServerProfile | None = None,
                   record_tokens: bool = False) -> dict[str, Any]:
    """The request fields besides model, messages and tools: `params` (with `extra_body` merged at the top level,
    as the SDK does) over the server profile's defaults (and its way of asking for token ids and logprobs, with
    `record_tokens`); `tool_choice: "auto"` whenever tools are offered."""
    profile = profile or profile_for(None)
    flat: dict[str, Any] = token_request(profile.name) if record_tokens else {}
    for key, value in params.items():
        if key == "extra_body" and isinstance(value, dict):
            flat.update(value)
        else:
            flat[key] = value
    return profile.apply(flat, has_tools)


def request_body(model: str, messages: list[dict[str, Any]], tools: list[dict[str, Any]],
                 params: dict[str, Any], profile: ServerProfile | None = None,
                 record_tokens: bool = False, flat: dict[str, Any] | None = None) -> dict[str, Any]:
    """The chat-completions body (see request_params; `flat`: what request_params gives for these arguments,
    made already)."""
    body: dict[str, Any] = {"model": model,
                            "messages": [{k: m[k] for k in _SENT_KEYS if k in m} for m in messages]}
    if tools:
        body["tools"] = tools
    body.update(request_params(params, bool(tools), profile, record_tokens) if flat is None else flat)
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
    if not raw_calls and isinstance(raw.get("function_call"), dict):  # the legacy single-call field
        raw_calls = [{"id": "", "function": raw["function_call"]}]
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
    finish = choice.get("finish_reason")
    return message, finish if isinstance(finish, str) else None, parse_usage(data.get("usage"))


def parse_usage(usage: Any) -> dict[str, int] | None:
    """The token counts of an answer; counts that are not whole numbers are left out, and a negative or absurd
    count (above MAX_TOKENS) is an `invalid_response`: summed into a run's totals it would falsify them."""
    if not isinstance(usage, dict):
        return None
    out = {}
    for key in ("prompt_tokens", "completion_tokens", "total_tokens"):
        value = usage.get(key)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
            continue
        if value < 0 or value > MAX_TOKENS:
            raise ModelError("invalid_response", f"usage.{key} is {value!r}: a token count must be between 0 "
                             f"and {MAX_TOKENS}")
        if value != int(value):
            continue
        out[key] = int(value)
    return out


class Profiler:
    """The server profile of one client: named by the user, or (`auto`) detected from GET /models and, when that
    says nothing, from the first answer's own fields (later requests then carry that profile's defaults)."""

    def __init__(self, name: str = "auto"):
        self.auto = name == "auto"
        self.profile = profile_for(None if self.auto else name)
        self.pending = self.auto  # GET /models not asked yet
        self.detected_by = "" if self.auto else "--server-profile"

    def from_models(self, listing: Any) -> None:
        self.pending = False
        kind = detect_from_models(listing) if self.auto else None
        if kind:
            self.profile, self.detected_by, self.auto = profile_for(kind), "GET /models", False

    def from_answer(self, answer: Any) -> None:
        if self.auto and not self.pending:
            kind = detect_from_answer(answer)
            if kind:
                self.profile, self.detected_by = profile_for(kind), "response fields"
            self.auto = False

    def hint(self, exc: ModelError) -> ModelError:
        """A 400 about tools names the flags this server needs to serve them."""
        text = exc.message.lower()
        if exc.status == 400 and self.profile.tool_flags and ("tool" in text or "function" in text):
            exc.message += f" ({self.profile.name} serves tool calls when started with {self.profile.tool_flags})"
            exc.args = (f"{exc.type}: {exc.message}",)
        return exc


def model_ids(listing: Any) -> list[str]:
    """The ids of a `GET /models` answer (`{"data": [{"id": ...}, ...]}`), in the server's order."""
    data = listing.get("data") if isinstance(listing, dict) else None
    if not isinstance(data, list):
        raise ModelError("invalid_response", "GET /models: the answer has no 'data' list")
    return [m["id"] for m in data if isinstance(m, dict) and isinstance(m.get("id"), str)]


def split_base_url(base_url: str) -> tuple[str, str]:
    """(base, query) of `--base-url`: the base without `/chat/completions` or a trailing slash, and the query string
    that every request must carry (Azure-style `.../v1?api-version=X`)."""
    parts = urlsplit(base_url)
    base = urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/"), "", "")).rstrip("/")
    if base.endswith("/chat/completions"):
        base = base[: -len("/chat/completions")]
    return base, parts.query


def endpoint(base: str, query: str, route: str) -> str:
    """The URL of `route` (`/chat/completions`, `/models`) under `base`, with the base URL's query kept."""
    return f"{base}{route}?{query}" if query else base + route


def env_proxy(scheme: str, host: str) -> bool:
    """Whether the proxy environment (HTTP_PROXY / ALL_PROXY, less NO_PROXY's hosts) would route `host` through a
    proxy, as aiohttp's `trust_env` reads it (plus ALL_PROXY)."""
    proxies = urllib.request.getproxies()
    if not (proxies.get(scheme) or proxies.get("all")):
        return False
    return not urllib.request.proxy_bypass(host)


def plain_route(url: str, headers: dict[str, str]) -> tuple[str, int, bytes] | None:
    """(host, port, request head) for the lean HTTP/1.1 client (`bc_common.http1`): a plain http:// URL with no
    credentials in it, no proxy to go through, a path and headers sent as written. None for anything else (https,
    proxies, IPv6 literals, odd characters or headers): those keep aiohttp."""
    parts = urlsplit(url)
    try:
        host, port = parts.hostname, parts.port or 80
    except ValueError:
        return None
    if (parts.scheme != "http" or not host or "[" in parts.netloc or parts.username is not None
            or parts.password is not None or parts.fragment or env_proxy("http", host)):
        return None
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    if not _PLAIN_TARGET.match(target):
        return None
    fields: dict[str, tuple[str, str]] = {}
    for name, value in headers.items():
        if (not isinstance(name, str) or not isinstance(value, str) or not _TOKEN.match(name)
                or name.lower() in _OWN_HEADERS or any(c in value for c in "\r\n\0")):
            return None
        fields[name.lower()] = (name, value.strip())
    lines = [f"POST {target} HTTP/1.1", f"Host: {host}" + (f":{port}" if port != 80 else ""),
             f"User-Agent: {_USER_AGENT}", *(f"{name}: {value}" for name, value in fields.values())]
    try:
        return host, port, ("\r\n".join(lines) + "\r\n").encode("latin-1")
    except UnicodeEncodeError:
        return None


class ChatClient:
    """OpenAI chat completions over aiohttp: one session, sized to the concurrency, TLS verified. Chat calls to a
    plain http:// server with no proxy go through `bc_common.http1`'s pooled connections instead (the same limits,
    errors and retries, ~40% less CPU a call in bench/eval.py).

        async with ChatClient("http://127.0.0.1:8000/v1", "qwen3-8b", concurrency=256) as client:
            reply = await client.complete(ModelRequest(messages, tools))
    """

    def __init__(self, base_url: str, model: str, *, api_key: str | None = None,
                 headers: dict[str, str] | None = None, params: dict[str, Any] | None = None,
                 timeout: float = 600.0, concurrency: int = 64, retry: RetryPolicy | None = None,
                 max_response_bytes: int = MAX_RESPONSE_BYTES, server_profile: str = "auto",
                 record_tokens: bool = False):
        self.base_url, self.query = split_base_url(base_url or DEFAULT_BASE_URL)
        self.record_tokens = record_tokens
        self.url = endpoint(self.base_url, self.query, "/chat/completions")
        self.model = model
        self.params = dict(params or {})
        self.timeout = aiohttp.ClientTimeout(total=timeout)
        self.concurrency = concurrency
        self.retry = retry or RetryPolicy()
        self.max_response_bytes = max_response_bytes
        self._headers = {"Content-Type": "application/json", "Accept": "application/json", **(headers or {})}
        if api_key:
            self._headers["Authorization"] = f"Bearer {api_key}"
        self._secrets = secrets_of(api_key, headers, self.url)
        self._session: aiohttp.ClientSession | None = None
        self._route = plain_route(self.url, self._headers)
        self._pool: Pool | None = None
        self.profiler = Profiler(server_profile)
        self._flat: dict[tuple[str, bool], tuple[dict[str, Any], dict[str, Any]]] = {}

    @property
    def profile(self) -> ServerProfile:
        return self.profiler.profile

    async def detect_profile(self) -> str:
        """Settle the server profile (`auto`: from GET /models); returns its name."""
        if self.profiler.pending:
            try:
                self.profiler.from_models(await self._get_models())
            except ModelError:
                self.profiler.from_models(None)
        return self.profiler.profile.name

    def _open(self) -> aiohttp.ClientSession:
        if self._session is None:
            connector = aiohttp.TCPConnector(limit=self.concurrency, limit_per_host=self.concurrency)
            self._session = aiohttp.ClientSession(connector=connector, headers=self._headers, timeout=self.timeout,
                                                  json_serialize=lambda o: orjson.dumps(o).decode())
        return self._session

    def _flat_params(self, has_tools: bool) -> dict[str, Any]:
        """request_params of the client's own params, made once per (profile, tools offered or not) while the
        params stay the same (every call of a run, but a judge's with its own response_format)."""
        key = (self.profiler.profile.name, has_tools)
        cached = self._flat.get(key)
        if cached is None or cached[0] != self.params:
            cached = self._flat[key] = (dict(self.params), request_params(self.params, has_tools, self.profile,
                                                                          self.record_tokens))
        return cached[1]

    async def complete(self, request: ModelRequest) -> ModelReply:
        flat = None if request.params else self._flat_params(bool(request.tools))
        body = request_body(self.model, request.messages, request.tools,
                            {**self.params, **request.params} if flat is None else self.params, self.profile,
                            self.record_tokens, flat)
        data = orjson.dumps(body)
        started = time.perf_counter()
        try:
            answer, attempts = await self.retry.run(lambda: self._post(data))
        except ModelError as exc:
            raise redact(self.profiler.hint(exc), self._secrets) from None
        self.profiler.from_answer(answer)
        message, finish, usage = parse_completion(answer)
        tokens = answer_tokens(answer) if self.record_tokens else None
        if tokens is not None and "prompt_ids" not in tokens and self.profile.name == "llamacpp":
            prompt = await llamacpp_prompt_ids(self._post_root, body, (usage or {}).get("prompt_tokens"))
            if prompt is not None:
                tokens = {"prompt_ids": prompt, **tokens}
        return ModelReply(message, finish, usage, time.perf_counter() - started, attempts, tokens)

    async def _post_root(self, route: str, body: dict[str, Any]) -> Any:
        """POST to a route under the server's root (llama-server's /tokenize sits beside /v1, not under it)."""
        root = self.base_url[: -len("/v1")] if self.base_url.endswith("/v1") else self.base_url
        return await self._exchange("POST", endpoint(root, self.query, route), route, orjson.dumps(body))

    async def _exchange(self, method: str, url: str, label: str, data: bytes | None = None,
                        json_label: str | None = None) -> Any:
        """One non-retried request besides the chat call (GET /models, llama.cpp's routes): its JSON answer, or a
        ModelError whose message starts with `label` (`json_label` for an answer that is not JSON)."""
        session = self._open()
        try:
            async with session.request(method, url, data=data, timeout=self.timeout, allow_redirects=False) as resp:
                raw = await read_capped(resp, self.max_response_bytes)
                if resp.status >= 300:
                    raise error_for_status(resp.status, raw, None, self._secrets, resp.headers.get("Location"))
        except asyncio.TimeoutError:
            raise ModelError("timeout", f"{label}: no answer within {self.timeout.total:g} s") from None
        except aiohttp.ClientError as exc:
            raise ModelError("connection_error", f"{label}: {type(exc).__name__}: {exc}") from None
        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError:
            raise ModelError("invalid_response", f"{json_label or label}: the answer is not JSON") from None

    async def _post(self, data: bytes) -> Any:
        if self._route is not None:
            return await self._post_plain(data)
        session = self._open()
        try:  # the session carries the timeout; a redirect is an error (the key must not follow it elsewhere)
            async with session.post(self.url, data=data, allow_redirects=False) as resp:
                body = await read_capped(resp, self.max_response_bytes)
                if resp.status >= 300:
                    raise error_for_status(resp.status, body, resp.headers.get("Retry-After"), self._secrets,
                                           resp.headers.get("Location"))
        except asyncio.TimeoutError:
            raise ModelError("timeout", f"no answer within {self.timeout.total:g} s", retryable=True) from None
        except aiohttp.ClientError as exc:
            raise ModelError("connection_error", f"{type(exc).__name__}: {exc}", retryable=True) from None
        return self._json(body)

    async def _post_plain(self, data: bytes) -> Any:
        """_post over the lean client: the same errors (a redirect is not followed, the size cap, the timeout)."""
        if self._pool is None:
            self._pool = Pool(self.concurrency, full=True, max_body=self.max_response_bytes)
        host, port, head = self._route
        try:
            status, body, headers = await self._pool.request(host, port, head, data, self.timeout.total)
        except asyncio.TimeoutError:
            raise ModelError("timeout", f"no answer within {self.timeout.total:g} s", retryable=True) from None
        except TooLarge as exc:
            raise too_large(exc.limit, exc.size) from None
        except BadEncoding as exc:
            raise ModelError("invalid_response", str(exc)) from None
        except (ConnectFailed, Dropped) as exc:
            raise ModelError("connection_error", f"{type(exc).__name__}: {exc}", retryable=True) from None
        if status >= 300:
            raise error_for_status(status, body, headers.get("retry-after"), self._secrets, headers.get("location"))
        return self._json(body)

    def _json(self, body: bytes) -> Any:
        try:
            return orjson.loads(body)
        except orjson.JSONDecodeError:
            text = clip(body[:64 * 1024].decode("utf-8", "replace"), self._secrets, 200)
            raise ModelError("invalid_response", f"the answer is not JSON: {text!r}", retryable=True) from None

    async def check(self) -> str:
        """One cheap request (GET /models) proving the endpoint answers; raises ModelError otherwise."""
        await self.list_models()
        return f"{redact_url(self.base_url)} answers"

    async def list_models(self) -> list[str]:
        """The model ids the server lists (GET /models); raises ModelError when it cannot be asked."""
        try:
            return model_ids(await self._get_models())
        except ModelError as exc:
            raise redact(exc, self._secrets) from None

    async def _get_models(self) -> Any:
        shown = redact_url(self.base_url)
        return await self._exchange("GET", endpoint(self.base_url, self.query, "/models"), shown,
                                    json_label=f"{shown}/models")

    async def aclose(self) -> None:
        if self._pool is not None:
            self._pool.close()
            self._pool = None
        if self._session is not None:
            await self._session.close()
            self._session = None
