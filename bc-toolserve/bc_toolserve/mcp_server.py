"""bc-toolserve over the Model Context Protocol, with the official MCP Python SDK (the `mcp` extra).

    Streamable HTTP:  POST http://HOST:PORT/mcp?bootcamp=arithmetic&seed=7&index=3   (master and unified)
    stdio:            bc-toolserve mcp --bootcamp arithmetic --seed 7 --index 3                 (mcp_stdio.py)

`tools/list` gives the task's tool schemas, `tools/call` runs them (one instance per tool and session, see
`mcp_session.py`), the prompt `task` is the task's prompt. The identity is never sent. A call's result carries the
harness' signals in `_meta["bootcamp-harness"]` (step reward, metrics, error type, the tool's reward), for
harnesses such as `bc-eval --tool-transport mcp`; clients should not show them to the model.

Sessions need the initialize handshake (the 2025 protocol revisions): `server/discover` advertises only those, so
the SDK's `auto` client falls back to it, and a session-less (2026-07-28) tool call is refused.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any
from urllib.parse import parse_qsl

import orjson

from bc_common.extras import install_hint

from .mcp_session import (
    DEFAULT_MAX_PER_CLIENT,
    DEFAULT_MAX_SESSIONS,
    McpSession,
    McpSessions,
    SessionEnded,
    TaskChoiceError,
    TaskChooser,
    routed_runtimes,
)

log = logging.getLogger("bc_toolserve.mcp")
META_KEY = "bootcamp-harness"
PROMPT_NAME = "task"
SESSION_HEADER = b"mcp-session-id"
DEFAULT_IDLE_TTL = 1800.0
SESSION_ENDED = -32000  # JSON-RPC "server error": the session ended before or while the request ran
DRAIN_TIMEOUT = 5.0  # seconds a DELETE waits for the session's other requests to be answered

try:
    import mcp_types as types
    from mcp.server.lowlevel.server import Server
    from mcp.shared.exceptions import MCPError
    from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
except ImportError:  # the `mcp` extra is not installed: /mcp answers 501, `bc-toolserve mcp` says what to install
    Server = None

MISSING_SDK = f"MCP needs the official MCP SDK: {install_hint('mcp')}"


def build_server(session_of, handshake_only: bool = False) -> Server:
    """The SDK server: tools/list, tools/call, prompts/list, prompts/get of the session `session_of(ctx)` gives.
    `handshake_only` (HTTP, where a session exists only after the initialize handshake): `server/discover`
    advertises the handshake revisions alone, so clients fall back to the handshake. Over stdio the process is the
    session, and either era works."""

    async def list_tools(ctx, params) -> types.ListToolsResult:
        session = session_of(ctx)
        return types.ListToolsResult(tools=[
            types.Tool(name=s["function"]["name"], description=s["function"].get("description") or None,
                       input_schema=s["function"].get("parameters") or {"type": "object"})
            for s in session.schemas])

    async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        session = session_of(ctx)
        session.busy += 1
        try:
            result, tool_reward = await session.call(params.name, params.arguments or {})
        except SessionEnded as exc:
            raise MCPError(SESSION_ENDED, str(exc)) from None
        finally:
            session.busy -= 1
        meta = {"reward": result.reward, "metrics": result.metrics,
                "error": result.error["type"] if result.error else None, "tool_reward": tool_reward}
        return types.CallToolResult(content=[types.TextContent(text=result.text)], is_error=not result.ok,
                                    _meta={META_KEY: meta})

    async def list_prompts(ctx, params) -> types.ListPromptsResult:
        session_of(ctx)
        return types.ListPromptsResult(prompts=[types.Prompt(
            name=PROMPT_NAME, description="The task of this session: what the agent must solve with the tools.")])

    async def get_prompt(ctx, params: types.GetPromptRequestParams) -> types.GetPromptResult:
        session = session_of(ctx)
        if params.name != PROMPT_NAME:
            raise MCPError(types.INVALID_PARAMS, f"unknown prompt {params.name!r}; this server offers {PROMPT_NAME!r}")
        return types.GetPromptResult(description=f"{session.task['data_source']} task",
                                     messages=[m for message in session.prompt for m in _prompt_messages(message)])

    server = Server("bc-toolserve", version=_version(), on_list_tools=list_tools, on_call_tool=call_tool,
                    on_list_prompts=list_prompts, on_get_prompt=get_prompt,
                    instructions="Bootcamp tools of one task per session; the prompt 'task' states the task.")

    async def discover(ctx, params) -> types.DiscoverResult:
        return types.DiscoverResult(supported_versions=list(HANDSHAKE_PROTOCOL_VERSIONS),
                                    capabilities=server.get_capabilities())

    if handshake_only:
        server.add_request_handler("server/discover", types.RequestParams, discover)
    return server


def _prompt_messages(message: dict[str, Any]) -> list[types.PromptMessage]:
    """MCP prompt messages of one chat message (MCP prompts know only the roles user and assistant)."""
    role = "assistant" if message.get("role") == "assistant" else "user"
    content = message.get("content")
    parts = [{"type": "text", "text": content}] if isinstance(content, str) else list(content or [])
    out = []
    for part in parts:
        if part.get("type") == "text":
            out.append(types.PromptMessage(role=role, content=types.TextContent(text=part.get("text", ""))))
        elif part.get("type") == "image_url":
            url = (part.get("image_url") or {}).get("url", "")
            head, _, data = url.partition(",")
            if head.startswith("data:") and head.endswith(";base64"):
                out.append(types.PromptMessage(role=role, content=types.ImageContent(
                    data=data, mime_type=head[5:-7] or "image/png")))
    return out


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("bootcamp-harness")
    except Exception:
        return ""


class McpEndpoint:
    """The `/mcp` ASGI app of the master: Streamable HTTP sessions (the SDK's session manager), each bound to the
    task its opening request chose, its tools released when the client deletes it or it idles past the TTL."""

    def __init__(self, sessions: McpSessions, max_body: int = 1 << 20, tokenless: bool = False):
        from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

        self.sessions = sessions
        self.server = build_server(self._session_of, handshake_only=True)
        self.manager = StreamableHTTPSessionManager(self.server, session_idle_timeout=sessions.idle_ttl,
                                                   max_request_body_size=max_body,
                                                   max_sessions=None,  # our caps admit sessions before the SDK
                                                   json_response=True,  # no SSE stream per call: ~3x calls/s
                                                   security_settings=_rebinding_guard() if tokenless else None)

    def _session_of(self, ctx) -> McpSession:
        request = ctx.request
        session_id = request.headers.get("mcp-session-id") if request is not None else None
        session = self.sessions.live.get(session_id) if session_id else None
        if session is None:
            raise MCPError(types.INVALID_REQUEST, "no MCP session: connect with the initialize handshake (protocol "
                                                  "2025-11-25 or earlier); tool state lives in sessions")
        return session

    @contextlib.asynccontextmanager
    async def run(self):
        async with self.manager.run():
            reaper = asyncio.create_task(self.sessions.reap_forever())
            try:
                yield
            finally:
                reaper.cancel()
                await self.sessions.end_all()

    def state(self) -> dict[str, Any]:
        return self.sessions.state()

    async def __call__(self, scope, receive, send) -> None:
        session_id = next((v.decode("latin-1") for k, v in scope["headers"] if k == SESSION_HEADER), None)
        if session_id is None and scope["method"] == "POST":
            await self._open(scope, receive, send)
            return
        session = self.sessions.live.get(session_id) if session_id else None
        if session is None:
            await self.manager.handle_request(scope, receive, send)
            return
        if scope["method"] == "DELETE":
            await self._delete(session_id, session, scope, receive, send)
            return
        answered = asyncio.get_running_loop().create_future()
        if scope["method"] == "POST":  # a GET is the client's listening stream: it lasts as long as the session
            session.requests.add(answered)
        session.busy += 1
        try:
            await self.manager.handle_request(scope, receive, send)
        finally:
            session.busy -= 1
            session.requests.discard(answered)
            answered.set_result(None)

    async def _delete(self, session_id: str, session: McpSession, scope, receive, send) -> None:
        """The client ends its session: its calls in flight are answered with a JSON-RPC error and its instances
        released first, then the SDK closes the transport (which would answer the calls still waiting with a bare
        500, or not at all)."""
        await self.sessions.end(session_id)
        if session.requests:
            await asyncio.wait(list(session.requests), timeout=DRAIN_TIMEOUT)
        await self.manager.handle_request(scope, receive, send)

    async def _open(self, scope, receive, send) -> None:
        """A request without a session id: room under the caps, then its task (refused before any session
        exists)."""
        client = (scope.get("client") or ("?", 0))[0]  # the address: every client shares the one token
        try:
            self.sessions.admit(client)
        except TaskChoiceError as exc:
            await _refuse(send, exc.status, str(exc), exc.kind)
            return
        added = False
        try:
            query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True))
            try:
                session = await asyncio.to_thread(self.sessions.start, query)  # a slow generator must not stall
            except TaskChoiceError as exc:
                await _refuse(send, exc.status, str(exc), exc.kind)
                return
            session.client = client

            async def register(message) -> None:
                nonlocal added
                if message["type"] == "http.response.start" and message["status"] < 400:
                    opened = next((v.decode("latin-1") for k, v in message.get("headers", [])
                                   if k == SESSION_HEADER), None)
                    if opened:
                        self.sessions.add(opened, session)
                        added = True
                        log.debug("MCP session %s… opened on %s", opened[:8], session.task["data_source"])
                await send(message)

            await self.manager.handle_request(scope, receive, register)
        finally:
            if not added:
                self.sessions.abandon(client)

    def gauges(self) -> dict[str, tuple]:
        """The sessions, their caps and the refusals at them, for /metrics."""
        state = self.sessions.state()
        return {
            "mcp_sessions": ("Live MCP sessions.", [({}, state["sessions"])]),
            "mcp_sessions_max": ("Cap on live MCP sessions (--mcp-max-sessions).", [({}, state["max_sessions"])]),
            "mcp_sessions_per_client_max": ("Cap on one client's MCP sessions (--mcp-max-sessions-per-client).",
                                            [({}, state["max_sessions_per_client"])]),
            "mcp_sessions_busiest_client": ("MCP sessions of the client holding the most.",
                                            [({}, state["busiest_client_sessions"])]),
            "mcp_sessions_refused_total": ("New MCP sessions refused at a cap, by cap.",
                                           [({"cap": cap}, n) for cap, n in sorted(state["refused"].items())],
                                           "counter"),
        }


class Unavailable:
    """`/mcp` without the SDK: 501 naming the extra to install."""

    @contextlib.asynccontextmanager
    async def run(self):
        yield

    def state(self) -> dict[str, Any]:
        return {"available": False}

    def gauges(self) -> dict[str, tuple]:
        return {}

    async def __call__(self, scope, receive, send) -> None:
        await _refuse(send, 501, MISSING_SDK)


async def _refuse(send, status: int, message: str, kind: str | None = None) -> None:
    """A JSON-RPC error body without id (what MCP clients read) with a real HTTP status (and our `type`)."""
    error = {"code": -32600, "message": message, **({"type": kind, "data": {"type": kind}} if kind else {})}
    body = orjson.dumps({"jsonrpc": "2.0", "id": None, "error": error})
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if status in (429, 503):
        headers.append((b"retry-after", b"1"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def mcp_endpoint(master, tasks: dict[str, dict] | None = None, idle_ttl: float = DEFAULT_IDLE_TTL,
                 max_sessions: int = DEFAULT_MAX_SESSIONS, max_per_client: int = DEFAULT_MAX_PER_CLIENT):
    """The master's `/mcp` app: sessions whose tools run on its workers (Unavailable without the SDK)."""
    if Server is None:
        return Unavailable()
    logging.getLogger("mcp").setLevel(logging.WARNING)  # the SDK logs every session's full id at INFO
    def unserved(names: list[str]) -> list[str]:
        return [name for name in names if not master.membership.alive_with(name)]

    sessions = McpSessions(TaskChooser(tasks), routed_runtimes(master.dispatch), idle_ttl, unserved,
                           max_sessions=max_sessions, max_per_client=max_per_client)
    return McpEndpoint(sessions, master.settings.max_body, tokenless=not master.settings.token)


def _rebinding_guard():
    """Without a token the server listens on loopback only (check_bind), but a web page the user opens could still
    reach it by DNS rebinding (its own name resolving to 127.0.0.1): accept only loopback Host and Origin headers."""
    from mcp.server.transport_security import TransportSecuritySettings

    hosts = ["127.0.0.1", "localhost", "[::1]"]
    return TransportSecuritySettings(enable_dns_rebinding_protection=True,
                                     allowed_hosts=[*hosts, *(f"{h}:*" for h in hosts)],
                                     allowed_origins=[f"{scheme}://{h}{port}" for scheme in ("http", "https")
                                                      for h in hosts for port in ("", ":*")])
