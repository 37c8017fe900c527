"""`bc-eval --tool-transport mcp --tool-server URL`: each trajectory's tools run in an MCP session on a bc-toolserve
master (`URL` is its `/mcp` endpoint), opened on the first tool call with the task's id and coordinates and closed
when the trajectory ends. Arguments are checked here as in process, so trajectories match the in-process ones.

The official MCP SDK's client (the `mcp` extra) speaks the protocol; the token comes from `BC_TOOLSERVE_TOKEN`.
"""
from __future__ import annotations

import contextlib
import os
from dataclasses import replace
from typing import Any
from urllib.parse import urlencode, urlsplit

from bc_common.bootcamp import Tool
from bc_common.environment import Environment, Environments
from bc_common.errors import ConfigError, ToolError
from bc_common.extras import install_hint
from bc_common.records import task_id
from bc_common.redaction import redact_url
from bc_common.rollout import prompt_messages
from bc_common.tool_runtime import ToolResult, ToolRuntime, ToolSession

TOKEN_ENV = "BC_TOOLSERVE_TOKEN"
META_KEY = "bootcamp-harness"  # what bc-toolserve puts in a tool result's _meta (bc_toolserve.mcp_server)


def check_tool_server(url: str | None) -> str:
    """The MCP endpoint URL: http(s), a host, no query (the task is chosen per session), `/mcp` by default."""
    try:
        import mcp  # noqa: F401
    except ImportError:
        raise ConfigError(f"--tool-transport mcp needs the official MCP SDK: {install_hint('mcp')}") from None
    parts = urlsplit(url or "")
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise ConfigError("--tool-server must be the server's MCP endpoint, http(s)://HOST:PORT[/mcp], without a "
                          "query")
    return f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/') or '/mcp'}"


class McpEnvironments(Environments):
    """Environments whose tools run over MCP at `url`; verifier, interaction and policy stay in process."""

    def __init__(self, url: str, **kwargs: Any):
        super().__init__(**kwargs)
        self.url = check_tool_server(url)
        self._over_mcp: dict[str, Environment] = {}

    def get(self, data_source: str) -> Environment:
        env = self._over_mcp.get(data_source)
        if env is None:
            env = super().get(data_source)
            if env.tools is not None:
                env = replace(env, tools=McpToolRuntime(env.tools, self.url))
            self._over_mcp[data_source] = env
        return env


class McpTool(Tool):
    """A bootcamp tool as bc-eval sees it over MCP: its schema, and `check` for the run's preflight (the calls go
    through `McpToolSession`)."""

    def __init__(self, tool_schema: dict[str, Any], url: str):
        super().__init__({}, tool_schema)
        self.server_url = url

    async def check(self) -> str:
        """Prove that the server answers MCP at this URL and takes our token, without opening a session: an
        initialize that chooses no task is refused (400) only after the token was accepted."""
        import aiohttp

        token = os.environ.get(TOKEN_ENV)
        headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        body = b'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}'
        shown = redact_url(self.server_url)
        try:
            async with aiohttp.ClientSession() as http, http.post(
                    self.server_url, data=body, headers=headers, allow_redirects=False,
                    timeout=aiohttp.ClientTimeout(total=10)) as resp:
                status, text = resp.status, (await resp.content.read(4096)).decode(errors="replace")
        except (aiohttp.ClientError, OSError, TimeoutError) as exc:
            raise ToolError("unavailable", f"cannot reach {shown}: {type(exc).__name__}") from None
        if status == 400 and "choose the session's task" in text:
            return f"{shown} serves MCP sessions and accepts the token"
        kind = {401: "unauthorized", 403: "forbidden", 404: "not_found", 501: "unavailable"}.get(status, "protocol")
        hint = f" (set {TOKEN_ENV} to the server's token)" if status in (401, 403) else \
            " (not a bc-toolserve MCP endpoint, or one without the mcp extra)"
        raise ToolError(kind, f"{shown}: HTTP {status}{hint}")


class McpToolRuntime(ToolRuntime):
    """The bootcamp's tools (their schemas and argument checks) with sessions that execute over MCP."""

    def __init__(self, local: ToolRuntime, url: str):
        self.__dict__.update(local.__dict__)  # validators: the same argument checks as in process
        self.tools = {name: McpTool(tool.tool_schema, url) for name, tool in local.tools.items()}
        self.url = url

    def session(self, create_kwargs: dict[str, dict[str, Any]] | None = None,
                allowed: list[str] | None = None, task: dict[str, Any] | None = None) -> ToolSession:
        return McpToolSession(self, create_kwargs or {}, allowed, task or {})


class McpToolSession(ToolSession):
    """One trajectory's MCP session: opened on the first valid call, closed (its instances released) at `close`."""

    def __init__(self, runtime: McpToolRuntime, create_kwargs: dict[str, dict[str, Any]], allowed: list[str] | None,
                 task: dict[str, Any]):
        super().__init__(runtime, create_kwargs, allowed)
        self.task = task
        self.url = runtime.url
        self.client = None
        self.lost = False  # the session broke after it started: its tool state is gone, no new session replaces it
        self._stack = contextlib.AsyncExitStack()
        self._tool_rewards: dict[str, float] = {}

    def session_url(self) -> str:
        """The endpoint with the task's id and, when the row has them, its coordinates (bootcamp, seed, index...)."""
        extra = self.task.get("extra_info") or {}
        query = {"task": task_id(self.task)}
        if extra.get("bootcamp") and isinstance(extra.get("index"), int):
            query.update(bootcamp=extra["bootcamp"], seed=extra.get("seed", 0), index=extra["index"],
                         split=extra.get("split") or "train")
            if extra.get("generator_name") not in (None, "", "default"):
                query["group"] = extra["generator_name"]
        return f"{self.url}?{urlencode(query)}"

    async def _connect(self):
        import httpx2
        from mcp import Client
        from mcp.client.streamable_http import streamable_http_client

        token = os.environ.get(TOKEN_ENV)
        http = await self._stack.enter_async_context(httpx2.AsyncClient(
            headers={"Authorization": f"Bearer {token}"} if token else {}, timeout=httpx2.Timeout(60.0)))
        client = await self._stack.enter_async_context(
            Client(streamable_http_client(self.session_url(), http_client=http), mode="legacy"))
        served = await client.get_prompt("task")
        if _texts(m.content for m in served.messages) != _texts(prompt_messages(self.task)):
            raise RuntimeError(f"the tool server chose another task than {task_id(self.task)!r} (generated with other "
                               "parameters, or redrawn as a duplicate): serve the task file with --tasks")
        self.client = client
        return client

    async def _run(self, name: str, arguments: dict[str, Any]) -> ToolResult:
        if self.lost:
            message = "Error: the MCP session of this trajectory was lost; its tool state is gone."
            return ToolResult(message, error={"type": "instance_lost", "message": message})
        try:
            client = self.client or await self._connect()
            result = await client.call_tool(name, arguments)
        except Exception as exc:  # the server unreachable, refusing, or another task: an error text, not a crash
            self.lost = self.client is not None
            await self._drop()
            message = f"Error: MCP tool server {redact_url(self.url)}: {_reason(exc)}"
            return ToolResult(message, error={"type": "unavailable", "message": message})
        meta = (result.meta or {}).get(META_KEY) or {}
        text = "\n".join(part.text for part in result.content if getattr(part, "type", None) == "text")
        self.instances[name] = self.instances.get(name) or "mcp"
        if meta.get("tool_reward") is not None:
            self._tool_rewards[name] = float(meta["tool_reward"])
        error = {"type": str(meta.get("error") or "tool_error"), "message": text} if result.is_error else None
        return ToolResult(text, float(meta.get("reward") or 0.0), dict(meta.get("metrics") or {}), error)

    async def _drop(self) -> None:
        self.client = None
        with contextlib.suppress(Exception):
            await self._stack.aclose()
        self._stack = contextlib.AsyncExitStack()

    async def close(self) -> dict[str, float]:
        """End the MCP session (the server releases its instances); the tools' rewards as last reported."""
        if self.closed:
            return {}
        self.closed = True
        await self._drop()
        return {name: self._tool_rewards.get(name, 0.0) for name in self.instances}


def _texts(contents) -> list[str]:
    out = []
    for content in contents:
        if isinstance(content, dict):
            value = content.get("content")
            parts = [value] if isinstance(value, str) else [p.get("text") for p in value or []
                                                            if isinstance(p, dict) and p.get("type") == "text"]
            out.extend(p for p in parts if p)
        elif getattr(content, "type", None) == "text":
            out.append(content.text)
    return out


def _reason(exc: BaseException) -> str:
    while getattr(exc, "exceptions", None):  # anyio wraps what the transport raised in exception groups
        exc = exc.exceptions[0]
    return f"{type(exc).__name__}: {exc}"[:500]
