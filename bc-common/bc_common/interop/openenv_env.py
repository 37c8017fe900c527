"""An OpenEnv 0.10 environment server for any bootcamp (the `openenv` extra).

Each OpenEnv session is one trajectory of bc-eval's rollout loop (`bc_common.interop.stepped`), so tools, the
interaction, turn budgets and the verifier behave as under `bc-eval`:

- `reset(bootcamp=..., index=i, seed=s, split=...)` (task *i*, the row `bc-gen` writes) or `reset(task=ROW)`:
  the observation's `messages` are the prompt, `offered_tools` the OpenAI schemas of its tools;
- `step(BootcampAction(content=..., tool_calls=[...]))`, the model's message: its tool calls run, then the
  interaction (if any) answers; `messages` holds what came back (tool results, the environment's reply);
- the MCP actions OpenEnv's `MCPToolClient` sends: `list_tools()` lists the task's tools (name, description,
  input schema), `call_tool(name, **args)` runs one call as an assistant turn of its own and returns its text;
- the observation that ends the episode has `done`, `reward` = our verifier's score, and `status`/`error`.

    python -m bc_common.interop.openenv_env --bootcamp knapsack --port 8000     # serve (loopback by default)
    async with MCPToolClient(base_url="http://127.0.0.1:8000") as env: ...     # play (docs/interop-openenv.md)
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import threading
import uuid
from collections.abc import AsyncIterator
from typing import Any, Literal

from ..extras import install_hint, missing_modules

if missing_modules(["openenv", "fastmcp"]):  # say what to install, not just which import failed
    raise ImportError(f"bc_common.interop.openenv_env needs the openenv extra, in a virtualenv of its own (its pins "
                      f"conflict with ours): {install_hint('openenv').split(' (or:')[0]} there, or `make test-interop` "
                      "builds .venv-openenv; docs/interop-openenv.md")

from fastmcp import Client, FastMCP
from fastmcp.tools import Tool as McpTool
from fastmcp.tools.base import ToolResult as McpResult
from mcp.types import TextContent
from openenv.core.env_server.http_server import create_app
from openenv.core.env_server.interfaces import Environment
from openenv.core.env_server.mcp_types import (
    CallToolAction,
    CallToolObservation,
    ListToolsAction,
    ListToolsObservation,
    Tool,
)
from openenv.core.env_server.types import Action, Observation, State
from pydantic import Field, PrivateAttr

from ..environment import Environments
from ..tasks import TaskSet
from .stepped import SteppedTrajectory, Turn

_ENVIRONMENTS = Environments()  # one per process: tool and interaction objects shared, their state per trajectory


class BootcampAction(Action):
    """The model's message: its text and the tool calls it makes (OpenAI shape, arguments as JSON text)."""

    type: Literal["message"] = "message"
    content: str = ""
    tool_calls: list[dict[str, Any]] = Field(default_factory=list)

    @classmethod
    def model_validate(cls, obj: Any, *args: Any, **kwargs: Any) -> Any:
        """A session's action from its JSON: OpenEnv's MCP actions by their `type`, else a message. (OpenEnv
        recognises its MCP actions only for servers whose action class is generic; ours is a message.)"""
        kind = obj.get("type") if isinstance(obj, dict) else None
        if kind == "list_tools":
            return ListToolsAction.model_validate(obj, *args, **kwargs)
        if kind == "call_tool":
            return CallToolAction.model_validate(obj, *args, **kwargs)
        return super().model_validate(obj, *args, **kwargs)


class BootcampObservation(Observation):
    """What the model reads next. (`tools` and `tool_name` are OpenEnv's MCP observation keys, so not ours.)"""

    messages: list[dict[str, Any]] = Field(default_factory=list)
    offered_tools: list[dict[str, Any]] = Field(default_factory=list)
    task_id: str = ""
    status: str | None = None
    error: dict[str, Any] | None = None


class BootcampEnvironment(Environment[BootcampAction, BootcampObservation, State]):
    """One session: one trajectory of a bootcamp task; `bootcamp` is what `reset()` plays when it names none."""

    SUPPORTS_CONCURRENT_SESSIONS = True  # a session's state is its own trajectory

    def __init__(self, bootcamp: str = "", *, seed: int = 0, split: str = "train"):
        super().__init__()
        self.bootcamp, self.seed, self.split = bootcamp, seed, split
        self._episode: SteppedTrajectory | None = None
        self._turn: Turn | None = None
        self._state = State(episode_id=None, step_count=0)
        self._calls = 0
        self._loop: asyncio.AbstractEventLoop | None = None  # the sync API's own loop (see _sync)
        # OpenEnv's MCPToolClient lists and calls tools over MCP (/mcp): a server of this session's task's tools
        self.mcp_server = FastMCP("bootcamp")
        self.mcp_client = Client(self.mcp_server)
        self._mcp_tools: list[str] = []

    @contextlib.asynccontextmanager
    async def mcp_session(self) -> AsyncIterator[Client]:
        """The MCP client, connected for one operation (what OpenEnv's server asks an MCP environment for)."""
        async with self.mcp_client:
            yield self.mcp_client

    async def reset_async(self, seed: int | None = None, episode_id: str | None = None, *,
                          task: dict[str, Any] | None = None, bootcamp: str | None = None, index: int = 0,
                          split: str | None = None, **kwargs: Any) -> BootcampObservation:
        """Start task `index` of `bootcamp` (or the row `task`); the observation holds its prompt and tools."""
        await self._end()
        if task is None:
            name = bootcamp or self.bootcamp
            if not name:
                raise ValueError("reset needs bootcamp=NAME (this server has no default) or task=ROW")
            task = TaskSet(name, seed=self.seed if seed is None else seed, split=split or self.split)[index]
        self._episode = SteppedTrajectory(task, _ENVIRONMENTS.get(task["data_source"]), model_name="openenv")
        self._state = State(episode_id=episode_id or str(uuid.uuid4()), step_count=0, task_id=task.get("id"))
        self._turn = await self._episode.start()
        self._offer(self._turn.tools)
        return self._observe(self._turn, self._turn.messages)

    def _offer(self, schemas: list[dict[str, Any]]) -> None:
        """This task's tools (and no other) on the session's MCP server."""
        for name in self._mcp_tools:
            self.mcp_server.local_provider.remove_tool(name)
        self._mcp_tools = []
        for schema in schemas:
            tool = _EpisodeTool.of(schema, self)
            self.mcp_server.add_tool(tool)
            self._mcp_tools.append(tool.name)

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> str | None:
        """One MCP tool call, as an assistant turn of its own; the text the tool returned."""
        self._require_turn()
        self._state.step_count += 1
        self._calls += 1
        call = {"id": f"mcp_{self._calls}", "type": "function", "function": {"name": name, "arguments": arguments}}
        self._turn = await self._episode.step({"content": "", "tool_calls": [call]})
        texts = [m.get("content") for m in self._turn.new if m.get("role") == "tool"]
        return texts[0] if texts else None

    async def step_async(self, action: Action, timeout_s: float | None = None, **kwargs: Any) -> Observation:
        if isinstance(action, ListToolsAction):
            return ListToolsObservation(tools=[_mcp_tool(s) for s in (self._turn.tools if self._turn else [])])
        if isinstance(action, CallToolAction):  # MCP: one call, an assistant turn of its own
            text = await self.call_tool(action.tool_name, action.arguments)
            return CallToolObservation(tool_name=action.tool_name, result=text, done=self._turn.done,
                                       reward=self._reward(self._turn), metadata=self._ending(self._turn))
        if not isinstance(action, BootcampAction):
            raise ValueError(f"a bootcamp session takes a message, list_tools or call_tool, not {type(action)}")
        self._require_turn()
        self._state.step_count += 1
        self._turn = await self._episode.step({"content": action.content, "tool_calls": action.tool_calls})
        return self._observe(self._turn, self._turn.new)

    def reset(self, seed: int | None = None, episode_id: str | None = None, **kwargs: Any) -> BootcampObservation:
        return self._sync(self.reset_async(seed, episode_id, **kwargs))

    def step(self, action: Action, timeout_s: float | None = None, **kwargs: Any) -> Observation:
        return self._sync(self.step_async(action, timeout_s, **kwargs))

    @property
    def state(self) -> State:
        return self._state

    def close(self) -> None:
        episode, self._episode = self._episode, None
        if episode is not None and episode.loop is not None and not episode.loop.is_closed():
            episode.loop.call_soon_threadsafe(lambda: asyncio.ensure_future(episode.close()))
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)

    def _observe(self, turn: Turn, messages: list[dict[str, Any]]) -> BootcampObservation:
        ending = self._ending(turn)
        return BootcampObservation(messages=messages, offered_tools=turn.tools, task_id=self._state.task_id or "",
                                   status=ending.get("status"), error=ending.get("error"), done=turn.done,
                                   reward=self._reward(turn), metadata=ending)

    @staticmethod
    def _reward(turn: Turn) -> float:
        """The verifier's score when the episode ends, 0 before (bc-eval's step rewards come with the end)."""
        if turn.done:
            return float(turn.score or 0.0)
        return 0.0

    @staticmethod
    def _ending(turn: Turn) -> dict[str, Any]:
        if not turn.done or turn.record is None:
            return {}
        record = turn.record
        return {"status": record["status"], "error": record["error"], "score": record["score"],
                "step_rewards": record["reward"]["step_rewards"], "turn_scores": record["reward"]["turn_scores"]}

    def _require_turn(self) -> Turn:
        if self._episode is None or self._turn is None:
            raise ValueError("call reset() before step()")
        if self._turn.done:
            raise ValueError("this episode has ended; call reset() for the next")
        return self._turn

    async def _end(self) -> None:
        if self._episode is not None:
            await self._episode.close()
        self._episode, self._turn, self._calls = None, None, 0

    def _sync(self, coroutine: Any) -> Any:
        """The sync API on a private loop thread: a trajectory lives on one loop from reset to its end."""
        if self._loop is None:
            self._loop = asyncio.new_event_loop()
            threading.Thread(target=self._loop.run_forever, daemon=True).start()
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result()


class _EpisodeTool(McpTool):
    """A bootcamp tool on a session's MCP server: each call runs in that session's trajectory."""

    _session: Any = PrivateAttr(default=None)

    @classmethod
    def of(cls, schema: dict[str, Any], session: BootcampEnvironment) -> _EpisodeTool:
        fn = schema.get("function") or {}
        tool = cls(name=fn.get("name", ""), description=fn.get("description", ""),
                   parameters=fn.get("parameters") or {"type": "object"}, output_schema=_TEXT_RESULT)
        tool._session = session
        return tool

    async def run(self, arguments: dict[str, Any]) -> McpResult:
        text = await self._session.call_tool(self.name, arguments)
        return McpResult(content=[TextContent(type="text", text=text or "")], structured_content={"result": text or ""})


# the tool's text as its structured result too: MCPToolClient.call_tool returns a result's `data`, its unwrapped value
_TEXT_RESULT = {"type": "object", "properties": {"result": {"type": "string"}}, "required": ["result"],
                "x-fastmcp-wrap-result": True}


def _mcp_tool(schema: dict[str, Any]) -> Tool:
    fn = schema.get("function") or {}
    return Tool(name=fn.get("name", ""), description=fn.get("description", ""),
                input_schema=fn.get("parameters") or {"type": "object"})


def make_app(bootcamp: str = "", *, seed: int = 0, split: str = "train", max_sessions: int = 64) -> Any:
    """The OpenEnv FastAPI app serving `bootcamp` (any bootcamp when reset names one): /ws, /reset, /step,
    /state, /schema, /health, as OpenEnv's `create_app` builds them."""
    if bootcamp:
        _ENVIRONMENTS.get(f"bootcamp/{bootcamp}")  # an unknown name fails here, not in the first session
    return create_app(lambda: BootcampEnvironment(bootcamp, seed=seed, split=split), BootcampAction,
                      BootcampObservation, env_name=f"bootcamp-{bootcamp or 'any'}", max_concurrent_envs=max_sessions)


def main(argv: list[str] | None = None) -> None:
    """`python -m bc_common.interop.openenv_env --bootcamp NAME --port N`: serve until stopped."""
    import uvicorn

    parser = argparse.ArgumentParser(prog="python -m bc_common.interop.openenv_env", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bootcamp", default="", help="what reset() plays when it names no bootcamp")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--split", default="train")
    parser.add_argument("--host", default="127.0.0.1", help="loopback by default; the server has no auth")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--max-sessions", type=int, default=64)
    args = parser.parse_args(argv)
    uvicorn.run(make_app(args.bootcamp, seed=args.seed, split=args.split, max_sessions=args.max_sessions),
                host=args.host, port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
