"""One match: two models seated at a multi-player bootcamp's game (`bc_common.seats`), each with a conversation of
its own, recorded as one trajectory row.

The row is the trajectory of the evaluated model's seat (`messages`, `score`, `model` are its own, so bc-filter,
bc-report and resume read it like any other row) plus `seats`: every seat's model, messages, turns and outcome.
Seats alternate across samples: in sample s the evaluated model sits in seat s mod (number of seats), so
`--samples 2` plays both sides of every task.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from .bootcamp import assistant_texts
from .environment import Environment, identity_of
from .model import Model, ModelError, ModelRequest
from .records import task_id as task_id_of
from .rollout import Limits
from .stamps import code_stamp


@dataclass
class Player:
    """A model and the name it is recorded under (`builtin:reference`, `qwen3-8b`, ...)."""

    model: Model
    name: str


@dataclass
class _Seat:
    seat: str
    player: Player
    role: str  # "model" (the one evaluated) or "opponent"
    messages: list[dict[str, Any]] = field(default_factory=list)
    turns: list[dict[str, Any]] = field(default_factory=list)
    usage: dict[str, int] = field(default_factory=lambda: {"prompt_tokens": 0, "completion_tokens": 0,
                                                           "total_tokens": 0})
    model_s: float = 0.0

    @property
    def moves(self) -> int:
        return len(self.turns)


def seating(seats: tuple[str, ...], sample: int) -> int:
    """The seat index of the evaluated model in `sample`: 0, 1, 0, 1, ... for two seats."""
    return sample % len(seats)


async def run_match(task: dict[str, Any], sample: int, model: Player, opponent: Player, env: Environment, *,
                    limits: Limits | None = None) -> dict[str, Any]:
    """Play one (task, sample) as a match of `env.seats` between `model` and `opponent`; returns the row of the
    evaluated model's seat with every seat under `seats` (TRAJECTORY_SCHEMA)."""
    game_class = env.seats
    if game_class is None:
        raise ValueError(f"{env.data_source} declares no seats")
    limits = (limits or Limits()).resolve(env)
    started_at = datetime.now(timezone.utc)
    t0 = time.perf_counter()
    tid = task_id_of(task)
    identity = identity_of(task)
    names = game_class.seats
    mine = seating(names, sample)
    seats = {name: _Seat(name, model if i == mine else opponent, "model" if i == mine else "opponent")
             for i, name in enumerate(names)}
    game = game_class(identity)
    status, error = "completed", None
    try:
        while (seat_name := game.to_move()) is not None:
            seat = seats[seat_name]
            if seat.moves >= min(limits.max_assistant_turns, game_class.max_moves):
                status = "max_turns"
                break
            seat.messages.append({"role": "user", "content": game.view(seat_name, first=not seat.messages)})
            message = await _model_turn(seat, ModelRequest(
                seat.messages, [], task, tid, sample, seat.moves, game_class.policy, dict(game_class.baselines),
                identity=game.seat_identity(seat_name)))
            game.play(seat_name, message["content"])
    except ModelError as exc:
        status, error = "error", {**exc.as_dict(), "seat": seat_name}
    except Exception as exc:  # a game bug ends this match, never the run
        status, error = "error", {"type": "internal_error", "message": f"{type(exc).__name__}: {exc}"}
    # the verifier's grade: the match replayed from the seats' assistant texts alone
    outcomes = game_class.score(identity, {s.seat: assistant_texts(s.messages) for s in seats.values()}) \
        if status == "completed" else {}
    me = seats[names[mine]]
    score = outcomes[me.seat].score if outcomes else 0.0
    return {
        "id": f"{tid}#{sample}", "task_id": tid, "input": task, "model": model.name, "sample": sample,
        "messages": me.messages, "tools": [], "turns": me.turns, "score": score,
        "reward": {"score": score, "step_rewards": [], "tool_rewards": {}, "turn_scores": [],
                   "seat_scores": {s: o.score for s, o in outcomes.items()}},
        "status": status, "error": error, "success": status == "completed" and score >= 1.0,
        **code_stamp(env.reward.__module__),
        "usage": me.usage,
        "num_turns": {"assistant": me.moves, "user": me.moves, "tool_calls": 0},
        "seats": [_seat_record(s, outcomes.get(s.seat)) for s in seats.values()],
        "timing": {"started_at": started_at.isoformat().replace("+00:00", "Z"),
                   "wall_s": round(time.perf_counter() - t0, 6), "model_s": round(me.model_s, 6),
                   "tool_s": 0.0, "interaction_s": 0.0},
    }


async def _model_turn(seat: _Seat, request: ModelRequest) -> dict[str, Any]:
    started = time.perf_counter()
    try:
        reply = await seat.player.model.complete(request)
    except ModelError as exc:
        seat.turns.append({"type": "model", "index": seat.moves, "latency_s": round(time.perf_counter() - started, 6),
                           "attempts": exc.attempts, "error": exc.as_dict()})
        raise
    seat.model_s += reply.latency_s
    # a seated game offers no tools: the message is the move, tool calls are dropped
    message = {"role": "assistant", "content": reply.message.get("content") or ""}
    seat.messages.append(message)
    turn = {"type": "model", "index": seat.moves, "latency_s": round(reply.latency_s, 6),
            "usage": reply.usage or {}, "finish_reason": reply.finish_reason, "error": None}
    if reply.tokens:  # --record-tokens: the ids and logprobs the server sent, as it sent them
        turn["tokens"] = reply.tokens
    seat.turns.append(turn)
    for key, value in (reply.usage or {}).items():
        if key in seat.usage:
            seat.usage[key] += value
    return message


def _seat_record(seat: _Seat, outcome: Any) -> dict[str, Any]:
    return {"seat": seat.seat, "role": seat.role, "model": seat.player.name, "messages": seat.messages,
            "turns": seat.turns, "usage": seat.usage,
            "result": outcome.result if outcome else None, "reason": outcome.reason if outcome else None,
            "score": outcome.score if outcome else None,
            **({"payoff": outcome.payoff} if outcome is not None and outcome.payoff is not None else {})}
