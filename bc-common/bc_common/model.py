"""The model protocol of the rollout loop: every model (an HTTP client, the `openai` SDK adapter, the built-in
policies) answers `complete(request)` with a `ModelReply` holding a clean assistant message, or raises `ModelError`
(typed, never carrying secrets).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass
class ModelRequest:
    """One model call of a trajectory. `task`, `sample`, `turn`, `policy`, `baselines` and `identity` (what a
    built-in policy is made with; None: the task's) serve the built-in models."""

    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]]
    task: dict[str, Any] = field(default_factory=dict)
    task_id: str = ""
    sample: int = 0
    turn: int = 0
    policy: Any = None
    baselines: dict[str, Any] = field(default_factory=dict)
    identity: Any = None  # a seat's identity in a match (bc_common.match): the task's plus the seat
    params: dict[str, Any] = field(default_factory=dict)  # request fields of this call only (a judge's response_format)


@dataclass
class ModelReply:
    message: dict[str, Any]  # {"role": "assistant", "content": str, "tool_calls"?: [...]}
    finish_reason: str | None
    usage: dict[str, int] | None
    latency_s: float
    attempts: int = 1
    tokens: dict[str, list[Any]] | None = None  # prompt_ids, completion_ids, completion_logprobs (--record-tokens)


class ModelError(Exception):
    """A model call that failed for good. `type`: bad_request, auth_error, not_found, rate_limited,
    server_error, timeout, connection_error, invalid_response."""

    def __init__(self, type: str, message: str, *, status: int | None = None, retryable: bool = False,
                 retry_after: float | None = None):
        super().__init__(f"{type}: {message}")
        self.type = type
        self.message = message
        self.status = status
        self.retryable = retryable
        self.retry_after = retry_after
        self.attempts = 1

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "message": self.message}
        if self.status is not None:
            out["status"] = self.status
        return out


class Model(Protocol):
    async def complete(self, request: ModelRequest) -> ModelReply: ...
