"""Synthetic task and trajectory rows in the shapes bc-gen and bc-eval write (common.md, SPEC §4)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

TOOL = {"type": "function", "function": {"name": "calculate", "description": "Evaluate an expression.",
                                         "parameters": {"type": "object",
                                                        "properties": {"expression": {"type": "string"}},
                                                        "required": ["expression"]}}}


def task(index: int, *, bootcamp: str = "arithmetic", split: str = "train", generator: str = "easy") -> dict:
    identity = {"expression": f"{index} + 1", "expected_result": str(index + 1), "tolerance": "1e-6"}
    return {"id": f"{bootcamp}-{index:016x}", "data_source": f"bootcamp/{bootcamp}", "agent_name": "bc_agent",
            "prompt": [{"role": "user", "content": f"Compute {index} + 1."}],
            "reward_model": {"style": "rule", "ground_truth": identity},
            "extra_info": {"split": split, "index": index, "generator_name": generator, "bootcamp": bootcamp,
                           "seed": 7, "config_hash": "ab12cd34ef56",
                           "tools_kwargs": {"calculate": {"create_kwargs": {"identity": identity}}},
                           "need_tools_kwargs": True,
                           "interaction_kwargs": {"name": "arithmetic_feedback", "identity": identity}}}


def trajectory(task_row: dict, sample: int = 0, *, score: float = 1.0, status: str = "completed",
               tool_error: bool = False, answer: str | None = None, assistant_turns: int = 2,
               **overrides: Any) -> dict:
    """A trajectory of `task_row`: a tool call, its result, then `assistant_turns - 1` answers with
    interaction feedback between them."""
    answer = answer if answer is not None else f'```json {{"result": {task_row["extra_info"]["index"] + 1}}}```'
    messages = list(task_row["prompt"]) + [
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_0", "type": "function",
             "function": {"name": "calculate", "arguments": '{"expression": "1 + 1"}'}}]},
        {"role": "tool", "tool_call_id": "call_0", "content": "error: bad" if tool_error else "2"},
    ]
    for turn in range(assistant_turns - 1):
        if turn:
            messages.append({"role": "user", "content": "Try again."})
        messages.append({"role": "assistant", "content": answer})
    turns = [{"type": "model", "index": 0, "latency_s": 0.01, "finish_reason": "tool_calls", "error": None},
             {"type": "tool", "name": "calculate", "call_id": "call_0", "latency_s": 0.0, "reward": 0.0,
              "metrics": {}, "error": {"type": "bad_arguments", "message": "bad"} if tool_error else None},
             {"type": "model", "index": 1, "latency_s": 0.01, "finish_reason": "stop", "error": None}]
    row = {"id": f"{task_row['id']}#{sample}", "task_id": task_row["id"], "input": task_row,
           "model": "builtin:noisy", "sample": sample, "messages": messages, "tools": [TOOL], "turns": turns,
           "score": score, "reward": {"score": score, "step_rewards": [0.0], "tool_rewards": {"calculate": 0.0},
                                      "turn_scores": []},
           "status": status, "error": None, "success": status == "completed" and score >= 1.0,
           "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
           "num_turns": {"assistant": assistant_turns, "user": max(assistant_turns - 2, 0), "tool_calls": 1},
           "timing": {"started_at": "2025-01-01T00:00:00+00:00", "wall_s": 0.1, "model_s": 0.05, "tool_s": 0.0}}
    row.update(overrides)
    return row


def eval_run(n_tasks: int = 6, samples: int = 4) -> list[dict]:
    """Like `bc-eval --samples 4` over n tasks: task i has i % 3 == 0 all solved, == 1 mixed, == 2 none."""
    rows = []
    for i in range(n_tasks):
        t = task(i)
        for s in range(samples):
            if i % 3 == 0:
                score = 1.0
            elif i % 3 == 1:
                score = 1.0 if s == 2 else 0.5 * (s % 2)
            else:
                score = 0.0
            rows.append(trajectory(t, s, score=score))
    return rows


def write_jsonl(path: Path, rows: list[Any]) -> Path:
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in rows))
    return path


def read_jsonl(data: bytes | Path) -> list[dict]:
    text = data.read_bytes() if isinstance(data, Path) else data
    return [orjson.loads(line) for line in text.splitlines() if line.strip()]


def match(task_row: dict, sample: int, seated: list[tuple[str, float | None]], *, model: str = "") -> dict:
    """A match row of bc-eval --opponent-model: `seated` is (model, score) per seat in seat order (score 1 / 0.5 /
    0, None when unfinished); the row is the seat of `model` (default: seat 0's)."""
    results = {1.0: "win", 0.5: "draw", 0.0: "loss", None: None}
    model = model or seated[0][0]
    seats = [{"seat": "XO"[i] if len(seated) == 2 else f"P{i}", "role": "model" if name == model else "opponent",
              "model": name, "messages": [{"role": "user", "content": "Your move."},
                                          {"role": "assistant", "content": "<move>5</move>"}],
              "turns": [], "usage": {}, "result": results[score], "reason": "", "score": score}
             for i, (name, score) in enumerate(seated)]
    mine = next(s for s in seats if s["model"] == model)
    status = "completed" if all(score is not None for _, score in seated) else "error"
    return trajectory(task_row, sample, score=mine["score"] or 0.0, status=status, model=model, seats=seats,
                      messages=mine["messages"], tools=[], turns=[])


def round_robin(strengths: dict[str, float], games: int, *, seed: int = 1, draw: float = 0.0,
                first_edge: float = 0.0) -> list[dict]:
    """Matches between every ordered pair of models (each sits first `games` times against each other), won by
    the Bradley-Terry odds of their Elo `strengths` (plus `first_edge` Elo points to the first seat); a share
    `draw` of games are draws. One task per match, the evaluated model always in seat 0."""
    import random

    rng = random.Random(seed)
    rows = []
    for first in strengths:
        for second in strengths:
            if first == second:
                continue
            for _ in range(games):
                gap = strengths[first] + first_edge - strengths[second]
                score = 0.5 if rng.random() < draw else 1.0 if rng.random() < 1 / (1 + 10 ** (-gap / 400)) else 0.0
                rows.append(match(task(len(rows)), 0, [(first, score), (second, 1.0 - score)]))
    return rows
