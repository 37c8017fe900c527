"""Shared fixtures for bc-train tests: task rows built by hand (the bc-gen row shape) and SFT rows."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

EXPRESSION = "12 + 7 × 3"


def task_row(i: int, expression: str = EXPRESSION, expected: str = "33", split: str = "train") -> dict:
    identity = {"expression": expression, "expected_result": expected, "tolerance": "1e-6"}
    return {
        "id": f"arithmetic-test{i:04d}", "data_source": "bootcamp/arithmetic", "agent_name": "bc_agent",
        "prompt": [{"role": "user", "content": f"Compute {expression}. End with ```json\n{{\"result\": <number>}}\n```"}],
        "reward_model": {"style": "rule", "ground_truth": identity},
        "extra_info": {"split": split, "index": i, "generator_name": "easy", "bootcamp": "arithmetic", "seed": 7,
                       "config_hash": "ab12cd34ef56",
                       "tools_kwargs": {"calculate": {"create_kwargs": {"identity": identity}}},
                       "need_tools_kwargs": True,
                       "interaction_kwargs": {"name": "arithmetic_feedback", "identity": identity}},
    }


def sft_row(i: int) -> dict:
    args = json.dumps({"expression": EXPRESSION})
    return {
        "id": f"arithmetic-test{i:04d}#0", "data_source": "bootcamp/arithmetic", "score": 1.0,
        "messages": [
            {"role": "user", "content": f"Compute {EXPRESSION}."},
            {"role": "assistant", "content": "",
             "tool_calls": [{"id": "call_0", "type": "function", "function": {"name": "calculate", "arguments": args}}]},
            {"role": "tool", "tool_call_id": "call_0", "content": "33"},
            {"role": "assistant", "content": "```json\n{\"result\": 33}\n```"},
        ],
        "tools": [{"type": "function", "function": {
            "name": "calculate", "description": "Evaluate an arithmetic expression exactly.",
            "parameters": {"type": "object", "properties": {"expression": {"type": "string"}},
                           "required": ["expression"]}}}],
    }


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.fixture
def tasks_file(tmp_path: Path) -> Path:
    return write_jsonl(tmp_path / "tasks.jsonl", [task_row(i) for i in range(24)])


@pytest.fixture
def sft_file(tmp_path: Path) -> Path:
    return write_jsonl(tmp_path / "sft.jsonl", [sft_row(i) for i in range(6)])
