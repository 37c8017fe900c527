"""The common record formats (SPEC §4): task rows (bc-gen) and trajectory rows (bc-eval).

The JSON Schemas below are the published contract (`bc-gen --schema task|trajectory`); the `check_*`
functions are the fast checks the tools run on every input line, naming the missing or wrong field.
"""
from __future__ import annotations

from typing import Any

from .errors import InputError, RecordKindError

STATUSES = ("completed", "max_turns", "length", "error")

_MESSAGE = {
    "type": "object",
    "required": ["role"],
    "properties": {
        "role": {"enum": ["system", "user", "assistant", "tool"]},
        "content": {"type": ["string", "null", "array"]},
        "tool_calls": {"type": "array", "items": {
            "type": "object", "required": ["id", "type", "function"],
            "properties": {"id": {"type": "string"}, "type": {"const": "function"},
                           "function": {"type": "object", "required": ["name", "arguments"],
                                        "properties": {"name": {"type": "string"},
                                                       "arguments": {"type": "string"}}}}}},
        "tool_call_id": {"type": "string"},
    },
}

_IDS = {"type": "array", "items": {"type": "integer", "minimum": 0}}
_TOKENS = {"type": "object", "additionalProperties": False,
           "description": "A model turn's tokens as the server sent them (bc-eval --record-tokens).",
           "properties": {"prompt_ids": _IDS, "completion_ids": _IDS,
                          "completion_logprobs": {"type": "array", "items": {"type": "number", "maximum": 0}}}}

_VERSION = {"type": "string", "description": "The distribution shipping the bootcamp (and its adapters' versions)."}
_CODE_HASH = {"type": "string", "description": "Hash of the bootcamp folder's files and version (bc_common.stamps)."}

TASK_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "bc/task.schema.json",
    "title": "Task row (bc-gen output; verl RL row shape)",
    "type": "object",
    "required": ["id", "data_source", "prompt", "reward_model", "extra_info"],
    "properties": {
        "id": {"type": "string", "description": "Stable id: same (bootcamp, config, seed, split, index) => same id."},
        "data_source": {"type": "string", "description": "'bootcamp/<name>': selects the verifier."},
        "agent_name": {"type": "string", "description": "verl agent loop for this row ('bc_agent' or "
                                                         "'single_turn_agent')."},
        "prompt": {"type": "array", "minItems": 1, "items": _MESSAGE, "description": "Chat messages."},
        "reward_model": {
            "type": "object", "required": ["style", "ground_truth"],
            "properties": {"style": {"type": "string"},
                           "ground_truth": {"description": "The identity: determines the instance and its check."}},
        },
        "extra_info": {
            "type": "object",
            "required": ["split", "index"],
            "properties": {
                "split": {"type": "string"},
                "index": {"type": "integer", "minimum": 0},
                "generator_name": {"type": "string", "description": "Config group that produced the row."},
                "bootcamp": {"type": "string"},
                "seed": {"type": "integer", "description": "Base seed of the run."},
                "config_hash": {"type": "string", "description": "Hash of generator class + parameters."},
                "bootcamp_version": _VERSION, "code_hash": _CODE_HASH,
                "tools_kwargs": {"type": "object", "description": "{tool_name: {create_kwargs: {...}}} (verl)."},
                "need_tools_kwargs": {"type": "boolean"},
                "interaction_kwargs": {"type": "object", "description": "{name, identity} or {} when none."},
            },
        },
    },
}

TRAJECTORY_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "bc/trajectory.schema.json",
    "title": "Trajectory row (bc-eval output)",
    "type": "object",
    "required": ["id", "task_id", "input", "model", "sample", "messages", "score", "status"],
    "properties": {
        "id": {"type": "string", "description": "'<task_id>#<sample>'."},
        "task_id": {"type": "string"},
        "input": {"$ref": "bc/task.schema.json", "description": "The task row, verbatim."},
        "model": {"type": "string"},
        "sample": {"type": "integer", "minimum": 0},
        "messages": {"type": "array", "items": _MESSAGE, "description": "Clean OpenAI chat messages, prompt included."},
        "tools": {"type": "array", "description": "Tool schemas offered to the model."},
        "turns": {"type": "array", "description": "One event per model call / tool call / interaction reply.",
                  "items": {"type": "object", "required": ["type"],
                            "properties": {"type": {"enum": ["model", "tool", "interaction"]},
                                           "latency_s": {"type": "number"},
                                           "error": {"type": ["object", "null"]},
                                           "tokens": _TOKENS}}},
        "score": {"type": "number", "minimum": 0, "maximum": 1,
                  "description": "Verifier score of the final assistant text only."},
        "reward": {"type": "object", "description": "score, step_rewards, tool_rewards, turn_scores."},
        "status": {"enum": list(STATUSES)},
        "error": {"type": ["object", "null"], "properties": {"type": {"type": "string"},
                                                             "message": {"type": "string"}}},
        "success": {"type": "boolean",
                    "description": "Seed compatibility: status == 'completed' and score == 1.0."},
        "usage": {"type": "object"},
        "timing": {"type": "object"},
        "seats": {"type": "array", "description": "A match (bc-eval --opponent-model): every seat's seat name, "
                                                  "role (model | opponent), model, messages, turns, usage, result "
                                                  "(win | draw | loss, null when unfinished), reason, score and payoff (the game's own measure where it has one: poker's chips).",
                  "items": {"type": "object", "required": ["seat", "role", "model", "messages"],
                            "properties": {"seat": {"type": "string"}, "role": {"enum": ["model", "opponent"]},
                                           "model": {"type": "string"},
                                           "messages": {"type": "array", "items": _MESSAGE},
                                           "result": {"enum": ["win", "draw", "loss", None]},
                                           "score": {"type": ["number", "null"]},
                                           "payoff": {"type": "number"}}}},
        "sandbox": {"type": "object", "description": "Bootcamps that run model-written code: the sandbox that ran "
                                                     "it (`sandbox`), `unsandboxed` (the BC_SANDBOX=none opt-in) "
                                                     "and its `limits`."},
        "bootcamp_version": _VERSION, "code_hash": _CODE_HASH,
        "rescore": {"type": "object", "description": "bc-eval --rescore: the score and stamp before it."},
        "cost": {"type": "object", "required": ["usd"],
                 "description": "USD of the row's usage at a known price (bc-eval --price, or the built-in table).",
                 "properties": {"usd": {"type": "number", "minimum": 0},
                                "input_per_mtok": {"type": "number", "minimum": 0},
                                "output_per_mtok": {"type": "number", "minimum": 0},
                                "price_source": {"type": "string"}}},
        "full_context": {"type": "string", "description": "The seed's mode only: the whole conversation in the "
                                                          "seed's text form."},
        "response_context": {"type": "string", "description": "The seed's mode only: what followed the prompt, "
                                                              "in the seed's text form (not what is graded)."},
    },
}

SCHEMAS = {"task": TASK_SCHEMA, "trajectory": TRAJECTORY_SCHEMA}


_KIND_FIELDS = {"trajectory": ("task_id", "input", "messages"), "task": ("data_source", "prompt")}


def record_kind(row: Any) -> str | None:
    """'task' or 'trajectory' when `row` has the required fields of that record kind, else None."""
    if not isinstance(row, dict):
        return None
    for kind, fields in _KIND_FIELDS.items():
        if all(name in row for name in fields):
            return kind
    return None


def _require(row: Any, fields: tuple[str, ...], kind: str) -> None:
    if not isinstance(row, dict):
        raise InputError(f"expected a {kind} object, got {type(row).__name__}")
    for name in fields:
        if name not in row:
            found = record_kind(row)
            if found and found != kind:  # `bc-report tasks.jsonl`: say what the file is, not which field is missing
                raise RecordKindError(found)
            raise InputError(f"missing field {name!r}", field=name)


def check_task(row: Any) -> None:
    """Raise InputError naming the field when `row` is not a usable task row."""
    _require(row, ("data_source", "prompt"), "task")
    prompt = row["prompt"]
    if isinstance(prompt, str):
        return
    if not isinstance(prompt, list) or not prompt:
        raise InputError("field 'prompt' must be a non-empty list of chat messages", field="prompt")
    for i, msg in enumerate(prompt):
        if not isinstance(msg, dict) or "role" not in msg:
            raise InputError(f"field 'prompt[{i}]' must be a message with a 'role'", field=f"prompt[{i}]")
    if not isinstance(row["data_source"], str):
        raise InputError("field 'data_source' must be a string", field="data_source")
    extra = row.get("extra_info", {})
    if extra is not None and not isinstance(extra, dict):
        raise InputError("field 'extra_info' must be an object", field="extra_info")


ROLES = frozenset(("system", "user", "assistant", "tool"))


def check_messages(messages: Any, name: str = "messages") -> None:
    """Raise InputError naming the element unless `messages` is a list of chat messages (schema `_MESSAGE`)."""
    if not isinstance(messages, list):
        raise InputError(f"field {name!r} must be a list", field=name)
    for i, msg in enumerate(messages):
        where = f"{name}[{i}]"
        if not isinstance(msg, dict) or msg.get("role") not in ROLES:
            raise InputError(f"field {where!r} must be a chat message object with a role "
                             f"({', '.join(sorted(ROLES))})", field=where)
        content = msg.get("content")
        if content is not None and not isinstance(content, str) and not (
                isinstance(content, list) and all(isinstance(p, dict) for p in content)):
            raise InputError(f"field '{where}.content' must be a string, a list of content parts or null",
                             field=f"{where}.content")
        calls = msg.get("tool_calls")
        if calls is not None and not (isinstance(calls, list) and all(
                isinstance(c, dict) and isinstance(c.get("function"), dict) for c in calls)):
            raise InputError(f"field '{where}.tool_calls' must be a list of tool calls with a 'function' object",
                             field=f"{where}.tool_calls")


def check_trajectory(row: Any) -> None:
    """Raise InputError naming the field when `row` is not a trajectory row."""
    _require(row, ("id", "task_id", "input", "messages", "score", "status"), "trajectory")
    check_messages(row["messages"])
    score = row["score"]
    if isinstance(score, bool) or not isinstance(score, (int, float)):
        raise InputError("field 'score' must be a number", field="score")
    if row["status"] not in STATUSES:
        raise InputError(f"field 'status' must be one of {', '.join(STATUSES)}", field="status")
    if not isinstance(row["input"], dict):
        raise InputError("field 'input' must be the task object", field="input")


def task_identity(row: dict[str, Any]) -> Any:
    """The identity of a task row (ground truth)."""
    return (row.get("reward_model") or {}).get("ground_truth")


def task_id(row: dict[str, Any]) -> str:
    """The task's id; rows from other producers without one get a stable content hash."""
    if isinstance(row.get("id"), str):
        return row["id"]
    import hashlib

    from .seeding import canonical_json

    return "task-" + hashlib.blake2b(canonical_json({k: row.get(k) for k in ("data_source", "prompt", "reward_model")}),
                                     digest_size=8).hexdigest()
