"""`bc-toolserve mcp`: one task's tools served in process to the MCP client on stdin/stdout (the process is the
session). Every request read before stdin closes is answered before the process exits.

    printf '%s\\n' "$INITIALIZE" "$TOOLS_CALL" | bc-toolserve mcp --bootcamp arithmetic --index 3   # both answered
"""
from __future__ import annotations

from typing import Any

from bc_common.errors import ConfigError

from .mcp_server import MISSING_SDK, Server, build_server
from .mcp_session import McpSessions, TaskChoiceError, TaskChooser


def serve_stdio(query: dict[str, str], tasks: dict[str, dict] | None = None) -> None:
    """Serve one task's tools (in process) to the MCP client on stdin/stdout until it closes them."""
    if Server is None:
        raise ConfigError(MISSING_SDK)
    import anyio
    from mcp.server.stdio import stdio_server

    sessions = McpSessions(TaskChooser(tasks), lambda env: env.tools)
    try:
        session = sessions.start(query)
    except TaskChoiceError as exc:
        raise ConfigError(str(exc)) from None
    server = build_server(lambda ctx: session)

    async def main() -> None:
        try:
            async with stdio_server() as (read, write):
                await answer_all(server, read, write)
        finally:
            await session.close()

    anyio.run(main)


async def answer_all(server: Any, read: Any, write: Any) -> None:
    """Run `server` over (read, write), holding stdin's end back from it until every request it was given has
    been answered: at EOF the SDK ends the connection by cancelling the handlers still running, so a client that
    pipes its requests and closes stdin would lose the last answers."""
    import anyio
    from mcp_types import JSONRPCError, JSONRPCNotification, JSONRPCRequest, JSONRPCResponse

    unanswered = _Unanswered()
    to_server, server_reads = anyio.create_memory_object_stream(0)
    server_writes, from_server = anyio.create_memory_object_stream(0)

    async def requests_in() -> None:
        async with read, to_server:  # the streams the server would close, closed as it would
            async for item in read:
                message = getattr(item, "message", None)
                if isinstance(message, JSONRPCRequest):
                    unanswered.add(message.id)
                elif isinstance(message, JSONRPCNotification) and message.method == "notifications/cancelled":
                    unanswered.settle((message.params or {}).get("requestId"))  # never answered (the spec)
                await to_server.send(item)
            await unanswered.none_left()

    async def answers_out() -> None:
        async with from_server, write:  # closing `write` ends the SDK's stdout writer
            async for item in from_server:
                await write.send(item)
                message = getattr(item, "message", None)
                if isinstance(message, JSONRPCResponse | JSONRPCError):
                    unanswered.settle(message.id)

    async with anyio.create_task_group() as group:
        group.start_soon(answers_out)
        async with anyio.create_task_group() as serving:
            serving.start_soon(requests_in)
            await server.run(server_reads, server_writes, server.create_initialization_options())
            serving.cancel_scope.cancel()  # the server stopped on its own: nothing more to feed it


class _Unanswered:
    """Ids of the requests handed to the server and not answered yet."""

    def __init__(self) -> None:
        self.ids: set[Any] = set()
        self._emptied: Any = None

    def add(self, request_id: Any) -> None:
        self.ids.add(request_id)

    def settle(self, request_id: Any) -> None:
        self.ids.discard(request_id)
        if not self.ids and self._emptied is not None:
            self._emptied.set()

    async def none_left(self) -> None:
        import anyio

        while self.ids:
            self._emptied = anyio.Event()
            await self._emptied.wait()
