"""An OpenAI-compatible chat server whose model is one of our built-in policies, for the tasks it was given.

A peer's runner (verifiers' `vf-eval`, an OpenEnv agent loop) calls a model over HTTP; pointing it here plays
`builtin:reference` (or `builtin:noisy`, `builtin:baseline/NAME`) through that runner, which is how the interop
tests prove a peer scores our tasks exactly as `bc-eval --model builtin:reference` does. A conversation is
matched to its task by its first user message, as a model that has seen the task would; a prompt shared by two
different tasks is refused (400), never guessed.

    with PolicyServer(rows).running() as base_url:     # http://127.0.0.1:PORT/v1
        ...
    python -m bc_common.interop.policy_server tasks.jsonl --model builtin:reference --port 8011
"""
from __future__ import annotations

import argparse
import contextlib
import itertools
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import orjson
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ..builtin_model import BuiltinModel
from ..environment import Environments
from ..loopback import serve_in_thread
from ..model import ModelRequest
from ..records import task_id
from ..rollout import prompt_messages


def first_user_text(messages: list[dict[str, Any]]) -> str:
    """The text of the first user message (content parts joined): what identifies a conversation's task."""
    for message in messages:
        if message.get("role") == "user":
            content = message.get("content")
            if isinstance(content, list):
                return "".join(str(p.get("text") or "") for p in content if isinstance(p, dict))
            return str(content or "")
    return ""


class PolicyServer:
    """Chat completions answered by a built-in model for `tasks` (task rows, as bc-gen writes them)."""

    def __init__(self, tasks: list[dict[str, Any]], model: str = "builtin:reference",
                 params: dict[str, Any] | None = None, environments: Environments | None = None):
        self.model_name = model
        self.model = BuiltinModel(model, params)
        self.envs = environments or Environments()
        self.by_prompt: dict[str, list[dict[str, Any]]] = {}
        for task in tasks:
            self.by_prompt.setdefault(first_user_text(prompt_messages(task)), []).append(task)
        self.calls = 0
        self._ids = itertools.count()
        self.app = Starlette(routes=[Route("/v1/chat/completions", self._chat, methods=["POST"]),
                                     Route("/v1/models", self._models, methods=["GET"])])

    async def _models(self, request: Request) -> JSONResponse:
        return JSONResponse({"object": "list", "data": [{"id": self.model_name, "object": "model",
                                                          "owned_by": "bootcamp-harness"}]})

    async def _chat(self, request: Request) -> JSONResponse:
        try:
            body = orjson.loads(await request.body())
            messages = [dict(m) for m in body["messages"]]
        except (orjson.JSONDecodeError, KeyError, TypeError, ValueError):
            return _error(400, "the body must be a JSON object with a `messages` list")
        found = self.by_prompt.get(first_user_text(messages), [])
        tasks = {task_id(t): t for t in found}
        if len(tasks) != 1:
            why = "no task of this server has" if not tasks else f"{len(tasks)} different tasks have"
            return _error(400, f"{why} this conversation's first user message")
        task = next(iter(tasks.values()))
        env = self.envs.get(task["data_source"])
        turn = sum(1 for m in messages if m.get("role") == "assistant")
        tools = [t for t in body.get("tools") or [] if isinstance(t, dict) and t.get("function")]
        self.calls += 1
        reply = await self.model.complete(ModelRequest(messages, tools, task, task_id(task), 0, turn, env.policy,
                                                       env.baselines))
        message = dict(reply.message)
        for call in message.get("tool_calls") or []:
            call.setdefault("type", "function")
        return JSONResponse({"id": f"chatcmpl-{next(self._ids)}", "object": "chat.completion",
                             "created": int(time.time()), "model": self.model_name,
                             "choices": [{"index": 0, "message": message, "finish_reason": reply.finish_reason}],
                             "usage": reply.usage})

    @contextlib.contextmanager
    def running(self, port: int = 0) -> Iterator[str]:
        """Serve on 127.0.0.1 in a background thread; yields the base URL (`.../v1`), stops on exit."""
        with serve_in_thread(self.app, port=port, what="the policy server", log_level="warning") as bound:
            yield f"http://127.0.0.1:{bound}/v1"


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": {"message": message, "type": "invalid_request_error"}}, status_code=status)


def main(argv: list[str] | None = None) -> None:
    """`python -m bc_common.interop.policy_server TASKS --model builtin:reference --port N`: serve until stopped."""
    from ..readers import read_records

    parser = argparse.ArgumentParser(prog="python -m bc_common.interop.policy_server", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("tasks", help="task rows (bc-gen's JSONL; - for stdin)")
    parser.add_argument("--model", default="builtin:reference", help="builtin:reference | noisy | baseline/NAME")
    parser.add_argument("--port", type=int, default=8011)
    args = parser.parse_args(argv)
    tasks = [record.data for record in read_records([args.tasks])]
    server = PolicyServer(tasks, args.model)
    with server.running(args.port) as url:
        print(f"serving {args.model} for {len(tasks)} tasks at {url}", file=sys.stderr, flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            threading.Event().wait()


if __name__ == "__main__":
    main()
