"""A scripted OpenAI-compatible chat server on loopback, for tests and benchmarks.

A conversation is recognised by its first user message; its script lists one step per model call (step i answers
the request that already holds i assistant messages). A step may fail a few attempts before it answers; `message`,
`choice` and `extra` fields are merged into the answer's message, its choice and its top level (a real server's
quirks: `timings`, a legacy `function_call`, `content: ""`, SGLang's `token_ids` in the choice, vLLM's
`prompt_token_ids` at the top), and `models_extra` into every entry of GET /models (`owned_by`). With `tokenize`,
a request asking `return_token_ids` is answered with the ids that function computes (in vLLM's places, or SGLang's
when it also asks `return_prompt_token_ids`). With
`llamacpp_routes`, it also answers llama-server's `POST /apply-template` and `POST /tokenize` (a toy template and
byte tokenizer, BOS 2 when `add_special`) and reports `usage.prompt_tokens` by them, as llama-server does:

    server = ScriptedServer({"Compute 2 + 3": [
        {"tool_calls": [{"name": "calculate", "arguments": {"expression": "2 + 3"}}],
         "faults": [{"status": 500}, {"status": 429, "retry_after": 0.1}]},
        {"content": '```json\\n{"result": 5}\\n```'},
    ]})
    with server.running() as base_url:   # http://127.0.0.1:PORT/v1
        ...

Run standalone (the benchmark does, so the client's CPU is measured apart from the server's):
`python -m bc_eval.testing --script script.json --delay 0.05` prints `PORT <n>` once it listens.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import socket
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import orjson
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from bc_common.loopback import listen, serve_in_thread

Step = dict[str, Any]
# (request body, the answer's message) -> (prompt ids, completion ids): a server in vLLM's shape with a real tokenizer
Tokenize = Callable[[dict[str, Any], dict[str, Any]], tuple[list[int], list[int]]]


def toy_template(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> str:
    """The scripted llama-server's chat template: each message as `<role>content</>`, then the assistant's turn."""
    head = f"<tools>{orjson.dumps(tools).decode()}</>" if tools else ""
    body = "".join(f"<{m.get('role')}>{m.get('content') or ''}"
                   f"{orjson.dumps(m['tool_calls']).decode() if m.get('tool_calls') else ''}</>" for m in messages)
    return head + body + "<assistant>"


def toy_tokens(text: str, add_special: bool) -> list[int]:
    """The scripted llama-server's tokenizer: one id per UTF-8 byte (+3), BOS 2 first when `add_special`."""
    return ([2] if add_special else []) + [b + 3 for b in text.encode()]


def conversation_key(messages: list[dict[str, Any]]) -> str:
    """The text of the first user message: how a script finds its conversation."""
    for msg in messages:
        if msg.get("role") == "user":
            content = msg.get("content")
            if isinstance(content, list):
                return "".join(p.get("text", "") for p in content if isinstance(p, dict))
            return content or ""
    return ""


class ScriptedServer:
    """An OpenAI chat-completions server that replays scripts; records requests when `record` is set."""

    def __init__(self, scripts: dict[str, list[Step]] | None = None, *, default: list[Step] | None = None,
                 delay: float = 0.0, record: bool = True, models: list[str] | None = None,
                 models_extra: dict[str, Any] | None = None, tokenize: Tokenize | None = None,
                 llamacpp_routes: bool = False):
        self.scripts = dict(scripts or {})
        self.models = ["scripted"] if models is None else list(models)  # what GET /models lists
        self.models_extra = dict(models_extra or {})
        self.default = default or [{"content": "I have no script for this conversation."}]
        self.delay = delay
        self.record = record
        self.tokenize = tokenize
        self.llamacpp_routes = llamacpp_routes
        self.requests: list[dict[str, Any]] = []
        self._attempts: dict[tuple[str, int], int] = {}
        self._ids = itertools.count()
        self.app = Starlette(routes=[
            Route("/v1/chat/completions", self._chat, methods=["POST"]),
            Route("/chat/completions", self._chat, methods=["POST"]),
            Route("/v1/models", self._models, methods=["GET"]),
        ] + ([Route("/apply-template", self._apply_template, methods=["POST"]),
              Route("/tokenize", self._tokenize, methods=["POST"])] if llamacpp_routes else []))

    async def _apply_template(self, request: Request) -> Response:
        body = orjson.loads(await request.body())
        return JSONResponse({"prompt": toy_template(body.get("messages") or [], body.get("tools") or [])})

    async def _tokenize(self, request: Request) -> Response:
        body = orjson.loads(await request.body())
        return JSONResponse({"tokens": toy_tokens(str(body.get("content", "")), bool(body.get("add_special")))})

    async def _models(self, request: Request) -> Response:
        return JSONResponse({"object": "list", "data": [{"id": m, "object": "model", **self.models_extra}
                                                        for m in self.models]})

    async def _chat(self, request: Request) -> Response:
        status, headers, payload = await self.answer(await request.body(), dict(request.headers))
        return Response(payload, status_code=status, headers=headers, media_type="application/json")

    async def answer(self, raw: bytes, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
        """(status, headers, JSON body) for one chat-completions request: the script's step or its fault."""
        try:
            body = orjson.loads(raw)
        except orjson.JSONDecodeError:
            return 400, {}, orjson.dumps({"error": {"message": "invalid JSON body"}})
        messages = body.get("messages") or []
        key = conversation_key(messages)
        turn = sum(1 for m in messages if m.get("role") == "assistant")
        if self.record:
            self.requests.append({"headers": headers, "body": body, "key": key, "turn": turn})
        script = self.scripts.get(key, self.default)
        step = script[min(turn, len(script) - 1)]
        faults = step.get("faults") or []
        if faults:
            attempt = self._attempts.get((key, turn), 0)
            self._attempts[(key, turn)] = attempt + 1
            if attempt < len(faults):
                return await self._fault(faults[attempt])
        delay = step.get("delay", self.delay)
        if delay:
            await asyncio.sleep(delay)
        return 200, {}, orjson.dumps(self._completion(body, step))

    async def _fault(self, fault: Step) -> tuple[int, dict[str, str], bytes]:
        if fault.get("delay"):
            await asyncio.sleep(fault["delay"])
        status = int(fault.get("status", 500))
        headers = {"Retry-After": str(fault["retry_after"])} if "retry_after" in fault else {}
        body = fault.get("body", {"error": {"message": f"scripted fault {status}", "type": "scripted"}})
        return status, headers, orjson.dumps(body)

    def _completion(self, body: dict[str, Any], step: Step) -> dict[str, Any]:
        n = next(self._ids)
        calls = []
        for j, call in enumerate(step.get("tool_calls") or []):
            args = call.get("arguments", {})
            calls.append({"id": call.get("id", f"call_{n}_{j}"), "type": "function",
                          "function": {"name": call.get("name", ""),
                                       "arguments": args if isinstance(args, str) else orjson.dumps(args).decode()}})
        content = step.get("content", "")
        message: dict[str, Any] = {"role": "assistant", "content": None if calls and not content else content}
        if calls:
            message["tool_calls"] = calls
        message.update(step.get("message") or {})
        finish = step.get("finish_reason") or ("tool_calls" if calls else "stop")
        reply: dict[str, Any] = {"id": f"chatcmpl-{n}", "object": "chat.completion", "created": int(time.time()),
                                 "model": body.get("model", "scripted"),
                                 "choices": [{"index": 0, "message": message, "finish_reason": finish,
                                              "logprobs": None, **(step.get("choice") or {})}]}
        reply.update(step.get("extra") or {})
        if self.tokenize is not None and body.get("return_token_ids"):
            prompt_ids, completion_ids = self.tokenize(body, message)
            if body.get("return_prompt_token_ids"):  # SGLang's dialect: both in the choice
                reply["choices"][0]["prompt_token_ids"] = prompt_ids
            else:  # vLLM's: the prompt's at the top
                reply["prompt_token_ids"] = prompt_ids
            reply["choices"][0]["token_ids"] = completion_ids
        if "usage" not in step:
            prompt = sum(len(str(m.get("content") or "")) for m in body.get("messages") or []) // 4 + 1
            if self.llamacpp_routes:  # llama-server counts what its template and tokenizer made
                prompt = len(toy_tokens(toy_template(body.get("messages") or [], body.get("tools") or []), True))
            completion = len(content) // 4 + 1
            reply["usage"] = {"prompt_tokens": prompt, "completion_tokens": completion,
                              "total_tokens": prompt + completion}
        elif step["usage"] is not None:
            reply["usage"] = step["usage"]
        return reply

    @contextlib.contextmanager
    def running(self) -> Iterator[str]:
        """Serve in a background thread on a free loopback port; yields the base URL (`.../v1`)."""
        with serve_in_thread(self.app, what="the scripted server", timeout_graceful_shutdown=0.2) as port:
            yield f"http://127.0.0.1:{port}/v1"


def main(argv: list[str] | None = None) -> None:
    """Serve a script file (`{"scripts": {...}, "default": [...]}`) until killed; prints `PORT <n>` when ready.

    `--engine aiohttp` serves the same scripts through aiohttp.web, several times faster than uvicorn's pure-Python
    HTTP parser: the benchmark uses it so the server is not what limits the clients it compares."""
    parser = argparse.ArgumentParser(prog="python -m bc_eval.testing", description=main.__doc__)
    parser.add_argument("--script", type=Path, help="JSON file with 'scripts' and/or 'default'")
    parser.add_argument("--delay", type=float, default=0.0, help="seconds to wait before every reply")
    parser.add_argument("--engine", choices=["uvicorn", "aiohttp"], default="uvicorn")
    args = parser.parse_args(argv)
    spec = orjson.loads(args.script.read_bytes()) if args.script else {}
    server = ScriptedServer(spec.get("scripts"), default=spec.get("default"), delay=args.delay, record=False)
    sock = listen()
    port = sock.getsockname()[1]
    if args.engine == "aiohttp":
        asyncio.run(_serve_aiohttp(server, sock))
        return
    userver = uvicorn.Server(uvicorn.Config(server.app, log_level="error", access_log=False, lifespan="off",
                                            backlog=2048))

    async def serve() -> None:
        task = asyncio.create_task(userver.serve(sockets=[sock]))
        while not userver.started:
            await asyncio.sleep(0.01)
        print(f"PORT {port}", flush=True)
        await task

    asyncio.run(serve())


async def _serve_aiohttp(server: ScriptedServer, sock: socket.socket) -> None:
    from aiohttp import web

    async def chat(request: web.Request) -> web.Response:
        status, headers, payload = await server.answer(await request.read(), dict(request.headers))
        return web.Response(body=payload, status=status, headers=headers, content_type="application/json")

    app = web.Application()
    app.router.add_post("/v1/chat/completions", chat)
    app.router.add_post("/chat/completions", chat)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.SockSite(runner, sock).start()
    print(f"PORT {sock.getsockname()[1]}", flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    sys.exit(main())
