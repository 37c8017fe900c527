"""The wire protocol shared by master and worker: typed API errors, JSON bodies with a size limit, id checks.

Every error is a JSON body `{"error": {"type", "message"}}` with a real HTTP status; never a 200.
"""
from __future__ import annotations

import asyncio
import re
from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import Response

DEFAULT_MAX_BODY = 1 << 20
DEFAULT_BODY_TIMEOUT = 30.0  # a client that announces more body than it sends must not hold a handler forever
OPERATIONS = ("create", "execute", "calc_reward", "release")
FORWARDED = "X-Bc-Forwarded"  # set by the master on the calls it routes (its view of who is alive decides)
_INSTANCE_ID = re.compile(r"[A-Za-z0-9_.:\-]{1,128}")
TOOL_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")  # always fullmatch: `$` lets a trailing newline in


class ApiError(Exception):
    """An error answered to the caller with `status` and a JSON body of `type` and `message`."""

    def __init__(self, status: int, type: str, message: str, extra: dict[str, Any] | None = None,
                 headers: dict[str, str] | None = None):
        super().__init__(message)
        self.status = status
        self.type = type
        self.message = message
        self.extra = extra or {}
        self.headers = headers


def retry_later(type: str, message: str, after: int = 1) -> ApiError:
    """503 with `Retry-After`: the call may be repeated as is (`RemoteTool` does)."""
    return ApiError(503, type, message, {"retryable": True}, {"Retry-After": str(after)})


class JSONBytes(Response):
    """A Starlette `Response` of ready JSON bytes with the headers `Response(body, status, media_type=
    "application/json")` would have, built without its header scan (the tool calls' answers: that scan and
    `render` were ~6% of a worker's CPU under bench/toolserve.py)."""

    media_type = "application/json"

    def __init__(self, body: bytes, status_code: int = 200):
        self.status_code = status_code
        self.background = None
        self.body = body
        self.raw_headers = ([] if status_code < 200 or status_code in (204, 304)
                            else [(b"content-length", b"%d" % len(body))])
        self.raw_headers.append((b"content-type", b"application/json"))


def json_response(data: Any, status: int = 200) -> Response:
    return JSONBytes(orjson.dumps(data), status)


def error_response(status: int, type: str, message: str, extra: dict[str, Any] | None = None,
                   headers: dict[str, str] | None = None) -> Response:
    response = json_response({"error": {"type": type, "message": message, **(extra or {})}}, status)
    if headers:
        response.headers.update(headers)
    return response


def api_error_response(exc: ApiError) -> Response:
    return error_response(exc.status, exc.type, exc.message, exc.extra, exc.headers)


async def api_error_handler(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return api_error_response(exc)


async def http_error_handler(request: Request, exc: Exception) -> Response:
    status = getattr(exc, "status_code", 500)
    kind = {404: "not_found", 405: "method_not_allowed"}.get(status, "http_error")
    return error_response(status, kind, str(getattr(exc, "detail", "")) or kind)


async def read_body(request: Request, limit: int, timeout: float = DEFAULT_BODY_TIMEOUT) -> bytes:
    """The raw request body, refusing more than `limit` bytes (413) whatever Content-Length claims, and a body
    that does not arrive within `timeout` seconds (408)."""
    return await receive_body(request.scope, request.receive, limit, timeout)


async def receive_body(scope, receive, limit: int, timeout: float = DEFAULT_BODY_TIMEOUT) -> bytes:
    """`read_body` on the bare ASGI scope and `receive` (the hot path has no Starlette `Request`)."""
    if _body_arrived(receive):  # `receive()` answers at once: no timer to arm (uvloop's cost ~5% of a call)
        return await _receive_body(scope, receive, limit)
    try:
        async with asyncio.timeout(timeout):  # a timer, no extra task per request
            return await _receive_body(scope, receive, limit)
    except asyncio.TimeoutError:
        raise ApiError(408, "timeout", f"request body not received within {timeout:g}s") from None


def _body_arrived(receive) -> bool:
    """Does uvicorn's request cycle behind `receive` already hold the whole body (a small request arrives in one
    read, before its handler runs)? Then `receive()` returns without waiting. False for any other `receive`."""
    cycle = getattr(receive, "__self__", None)
    event = getattr(cycle, "message_event", None)
    return (getattr(cycle, "more_body", True) is False and getattr(cycle, "waiting_for_100_continue", True) is False
            and isinstance(event, asyncio.Event) and event.is_set())


async def _receive_body(scope, receive, limit: int) -> bytes:
    for key, value in scope["headers"]:
        if key == b"content-length":
            try:
                declared = int(value)
            except ValueError:
                raise ApiError(400, "bad_request", "invalid Content-Length") from None
            if declared > limit:
                raise ApiError(413, "body_too_large", f"request body over {limit} bytes")
            break
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise ApiError(400, "bad_request", "client disconnected before sending the whole body")
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise ApiError(413, "body_too_large", f"request body over {limit} bytes")
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def parse_object(raw: bytes) -> dict[str, Any]:
    """A JSON object from `raw` (an empty body is `{}`); 400 otherwise."""
    if not raw.strip():
        return {}
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise ApiError(400, "bad_request", f"body is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ApiError(400, "bad_request", "body must be a JSON object")
    return data


async def read_json(request: Request, limit: int, timeout: float = DEFAULT_BODY_TIMEOUT) -> dict[str, Any]:
    return parse_object(await read_body(request, limit, timeout))


def check_instance_id(value: Any, required: bool = True) -> str | None:
    """A valid instance id (letters, digits, `_.:-`, at most 128), None when absent and not required."""
    if value is None and not required:
        return None
    if not isinstance(value, str) or not _INSTANCE_ID.fullmatch(value):  # `$` would let a trailing newline in
        raise ApiError(400, "bad_request", "instance_id must be 1-128 characters of [A-Za-z0-9_.:-]")
    return value


def execute_parameters(body: dict[str, Any]) -> Any:
    """The tool arguments of an execute body: nested `{"instance_id", "parameters": {...}}` (ours), or flat
    `{"instance_id", "a": 1, ...}` (the seed's clients). A body with a `parameters` key is always nested."""
    if "parameters" in body:
        return {} if body["parameters"] is None else body["parameters"]
    return {k: v for k, v in body.items() if k != "instance_id"}


def seed_call(by_class_name: bool, raw: bytes) -> bool:
    """Did a seed client make this execute call? It addresses tools by class name or sends flat parameters (ours
    always nest them under `parameters`)."""
    if by_class_name:
        return True
    try:
        body = orjson.loads(raw) if raw.strip() else {}
    except orjson.JSONDecodeError:
        return False
    return isinstance(body, dict) and "parameters" not in body


def seed_execute_reply(response: Response) -> Response:
    """An execute answer in the seed's shape, `[text, reward, metrics]` (its clients unpack three values; our
    object would unpack into its keys). An answer already in that shape, or an error, is returned as is."""
    if response.status_code != 200 or response.body[:1] == b"[":  # an error, or the worker answered a 3-list
        return response
    answer = orjson.loads(response.body)
    if not isinstance(answer, dict):
        return response
    return JSONBytes(orjson.dumps([answer.get("text", ""), answer.get("reward", 0.0), answer.get("metrics") or {}]))


def create_kwargs(body: dict[str, Any]) -> dict[str, Any]:
    """Keyword arguments for `Tool.create`: `create_kwargs` if given, else every key but `instance_id`."""
    if "create_kwargs" in body:
        kwargs = body["create_kwargs"] or {}
        if not isinstance(kwargs, dict):
            raise ApiError(400, "bad_request", "create_kwargs must be a JSON object")
        return dict(kwargs)
    return {k: v for k, v in body.items() if k != "instance_id"}
