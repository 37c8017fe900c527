"""One trajectory of bc-eval's rollout loop, driven from outside one assistant message at a time.

A peer (a verifiers harness, an OpenEnv server) owns the model; we own everything else. The loop is
`bc_common.rollout.run_trajectory` itself, with a model that hands each request out and waits for the peer's
reply, so tools, the interaction, turn budgets, tool-call caps and the verifier are exactly bc-eval's:

    episode = SteppedTrajectory(task_row, Environments().get(task_row["data_source"]))
    turn = await episode.start()            # turn.messages: the prompt; turn.tools: the schemas offered
    while not turn.done:
        turn = await episode.step(await my_model(turn.messages, turn.tools))
    turn.record["score"]                    # the trajectory row bc-eval would write
"""
from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

import orjson

from ..environment import Environment
from ..model import ModelReply, ModelRequest
from ..rollout import Limits, run_trajectory


@dataclass
class Turn:
    """What the model sees next: the whole conversation, the messages new since the last assistant message
    (tool results, the environment's reply), the tools offered; or, when `done`, the trajectory record."""

    messages: list[dict[str, Any]]
    new: list[dict[str, Any]]
    tools: list[dict[str, Any]] = field(default_factory=list)
    done: bool = False
    record: dict[str, Any] | None = None

    @property
    def score(self) -> float | None:
        return None if self.record is None else float(self.record["score"])


class _RelayModel:
    """The rollout loop's model: each request goes out on `requests`, each reply comes back on `replies`."""

    def __init__(self) -> None:
        self.requests: asyncio.Queue[ModelRequest] = asyncio.Queue()
        self.replies: asyncio.Queue[tuple[dict[str, Any], str | None]] = asyncio.Queue()

    async def complete(self, request: ModelRequest) -> ModelReply:
        started = time.perf_counter()
        await self.requests.put(request)
        message, finish_reason = await self.replies.get()
        return ModelReply(message, finish_reason, None, time.perf_counter() - started)


class SteppedTrajectory:
    """A trajectory whose assistant messages come from the caller (`step`); sample 0 of `task`."""

    def __init__(self, task: dict[str, Any], env: Environment, *, model_name: str = "external",
                 limits: Limits | None = None, verify_kwargs: dict[str, Any] | None = None):
        self.task, self.env = task, env
        self._model = _RelayModel()
        self._options = {"model_name": model_name, "limits": limits, "verify_kwargs": verify_kwargs}
        self._run: asyncio.Future[dict[str, Any]] | None = None
        self._seen = 0
        self._tools: list[dict[str, Any]] = []
        self.record: dict[str, Any] | None = None

    async def start(self) -> Turn:
        """Start the loop; the first turn holds the prompt (and is already done when the task needs no model)."""
        if self._run is not None:
            raise RuntimeError("this trajectory has already started")
        self._run = asyncio.ensure_future(run_trajectory(self.task, 0, self._model, self.env, **self._options))
        return await self._next()

    async def step(self, message: dict[str, Any], finish_reason: str | None = None) -> Turn:
        """Hand the loop the model's next message (OpenAI format); the turn after it, or the end."""
        if self._run is None or self.record is not None:
            raise RuntimeError("step() needs a started trajectory that has not ended")
        message = clean_assistant(message)
        if finish_reason is None:
            finish_reason = "tool_calls" if message.get("tool_calls") else "stop"
        self._seen += 1  # the loop appends the assistant message itself
        self._model.replies.put_nowait((message, finish_reason))
        return await self._next()

    async def _next(self) -> Turn:
        assert self._run is not None
        asked = asyncio.ensure_future(self._model.requests.get())
        await asyncio.wait({asked, self._run}, return_when=asyncio.FIRST_COMPLETED)
        if asked.done():
            request = asked.result()
            new = request.messages[self._seen:]
            self._seen = len(request.messages)
            self._tools = request.tools
            return Turn(list(request.messages), list(new), list(request.tools))
        asked.cancel()
        self.record = self._run.result()
        messages = self.record["messages"]
        new, self._seen = messages[self._seen:], len(messages)
        return Turn(messages, new, self._tools, done=True, record=self.record)

    @property
    def loop(self) -> asyncio.AbstractEventLoop | None:
        """The event loop the trajectory runs on (None before `start`)."""
        return None if self._run is None else self._run.get_loop()

    async def close(self) -> None:
        """End a trajectory left unfinished; its tool instances and interaction are released."""
        if self._run is not None and not self._run.done():
            self._run.cancel()
            await asyncio.gather(self._run, return_exceptions=True)


def clean_assistant(message: dict[str, Any]) -> dict[str, Any]:
    """An assistant message as the rollout loop records one: text content (never None), tool calls in OpenAI's
    shape with string arguments, no empty `tool_calls`, no fields a peer's SDK added (`refusal`, `audio`...)."""
    out: dict[str, Any] = {"role": "assistant", "content": message.get("content") or ""}
    calls = []
    for call in message.get("tool_calls") or []:
        fn = call.get("function") or {"name": call.get("name"), "arguments": call.get("arguments")}
        arguments = fn.get("arguments")
        calls.append({"id": call.get("id") or "", "type": "function",
                      "function": {"name": fn.get("name") or "",
                                   "arguments": arguments if isinstance(arguments, str) else _dumps(arguments)}})
    if calls:
        out["tool_calls"] = calls
    return out


def _dumps(value: Any) -> str:
    return orjson.dumps(value if value is not None else {}).decode()
