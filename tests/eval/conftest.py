"""Fixtures for bc-eval tests: hand-built task rows and a scripted OpenAI-compatible server on loopback."""
from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest

from bc_common.safe_eval import format_number, safe_eval
from bc_eval.testing import ScriptedServer

BIN = Path(sys.executable).parent


def arithmetic_task(expression: str, index: int = 0, *, tools: bool = True, interaction: bool = True,
                    prompt: str | None = None) -> dict[str, Any]:
    """A task row of the arithmetic bootcamp, in bc-gen's shape."""
    identity = {"expression": expression, "expected_result": format_number(safe_eval(expression), 17),
                "tolerance": "1e-6"}
    extra: dict[str, Any] = {"split": "test", "index": index, "generator_name": "hand", "bootcamp": "arithmetic"}
    if tools:
        extra["tools_kwargs"] = {"calculate": {"create_kwargs": {"identity": identity}}}
        extra["need_tools_kwargs"] = True
    if interaction:
        extra["interaction_kwargs"] = {"name": "arithmetic_feedback", "identity": identity}
    return {"id": f"arith-{index}", "data_source": "bootcamp/arithmetic", "agent_name": "bc_agent",
            "prompt": [{"role": "user", "content": prompt or f"Compute {expression} (task {index})."}],
            "reward_model": {"style": "rule", "ground_truth": identity}, "extra_info": extra}


def answer(value: Any) -> str:
    return f'The result is:\n```json\n{{"result": {value}}}\n```'


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in rows))
    return path


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines() if line.strip()]


def bc_eval_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "OPENAI_BASE_URL")}
    env.update(extra)
    return env


@pytest.fixture
def scripted():
    """Start a ScriptedServer with the given scripts; yields (server, base_url) pairs via a factory."""
    stack = []

    def start(scripts: dict[str, list[dict[str, Any]]] | None = None, **kwargs: Any) -> tuple[ScriptedServer, str]:
        server = ScriptedServer(scripts, **kwargs)
        ctx = server.running()
        url = ctx.__enter__()
        stack.append(ctx)
        return server, url

    yield start
    for ctx in reversed(stack):
        ctx.__exit__(None, None, None)
