"""One trajectory: model -> tools -> model ... -> answer -> interaction -> model ..., recorded turn by turn.

Stops when the assistant answers without a tool call and no interaction speaks, when the interaction
terminates, when a turn budget is spent, when the model stops for length, or when a model call fails for good.
Tool instances and the interaction are always released; the verifier grades the final assistant text only.
"""
from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

import orjson

from .bootcamp import assistant_texts, final_assistant_text
from .environment import Environment, identity_of
from .errors import GraderUnavailable
from .model import Model, ModelError, ModelReply, ModelRequest
from .records import task_id as task_id_of
from .rubric import Judge, grade_rubric, rubric_of
from .stamps import code_stamp
from .types import InteractionReply

DEFAULT_ASSISTANT_TURNS, DEFAULT_USER_TURNS = 5, 20
DEFAULT_TOOL_CALLS_PER_TURN, DEFAULT_TOOL_CALLS = 16, 64

# A live view of a trajectory: called as trace(event, fields) with event one of request (the messages new since
# the last model call), reply, tool, interaction, verdict (see bc_eval.trace, which prints them).
Trace = Callable[[str, dict[str, Any]], None]


@dataclass
class Limits:
    """Turn budgets and tool-call caps. User turns count tool responses and interaction replies (as the seed
    does); a budget left None is the default (5 and 20) raised to what the bootcamp says its tasks need. The
    tool calls of one assistant message run all or none: a message that would pass a cap or budget runs none."""

    max_assistant_turns: int | None = None
    max_user_turns: int | None = None
    max_tool_calls_per_turn: int | None = None
    max_tool_calls: int | None = None

    def __post_init__(self) -> None:
        if (self.max_assistant_turns is not None and self.max_assistant_turns < 1) or \
                (self.max_user_turns is not None and self.max_user_turns < 0):
            raise ValueError("turn budgets must be positive (there is no unlimited)")
        if any(cap is not None and cap < 1 for cap in (self.max_tool_calls_per_turn, self.max_tool_calls)):
            raise ValueError("tool-call caps must be at least 1 (there is no unlimited)")

    @classmethod
    def for_env(cls, env: Environment) -> Limits:
        """The default budgets, raised to what the bootcamp says its tasks need."""
        return cls().resolve(env)

    def resolve(self, env: Environment) -> Limits:
        """These limits with every budget and cap left None filled in for `env`'s bootcamp: the default, raised to
        what the bootcamp says its tasks need."""
        def pick(value: int | None, key: str, default: int) -> int:
            return value if value is not None else max(default, env.limits.get(key, 0))

        return Limits(pick(self.max_assistant_turns, "max_assistant_turns", DEFAULT_ASSISTANT_TURNS),
                      pick(self.max_user_turns, "max_user_turns", DEFAULT_USER_TURNS),
                      pick(self.max_tool_calls_per_turn, "max_tool_calls_per_turn", DEFAULT_TOOL_CALLS_PER_TURN),
                      pick(self.max_tool_calls, "max_tool_calls", DEFAULT_TOOL_CALLS))


@dataclass
class _State:
    messages: list[dict[str, Any]]
    turns: list[dict[str, Any]] = field(default_factory=list)
    assistant: int = 0
    user: int = 0
    tool_calls: int = 0
    step_rewards: list[float] = field(default_factory=list)
    turn_scores: list[float] = field(default_factory=list)
    usage: dict[str, int] = field(default_factory=lambda: {"prompt_tokens": 0, "completion_tokens": 0,
                                                           "total_tokens": 0})
    model_s: float = 0.0
    tool_s: float = 0.0
    interaction_s: float = 0.0
    call_ids: set[str] = field(default_factory=set)
    trace: Trace | None = None
    sent: int = 0  # messages already shown to the trace

    def emit(self, event: str, **fields: Any) -> None:
        if self.trace is not None:
            self.trace(event, fields)


def prompt_messages(task: dict[str, Any]) -> list[dict[str, Any]]:
    """The task's prompt as chat messages (a string prompt becomes one user message)."""
    prompt = task["prompt"]
    if isinstance(prompt, str):
        return [{"role": "user", "content": prompt}]
    return [dict(m) for m in prompt]


def offered_tools(task: dict[str, Any], env: Environment) -> tuple[list[str], dict[str, dict[str, Any]]]:
    """(tool names offered to the model, create kwargs by tool) for a task row.

    The keys of `extra_info.tools_kwargs` when it lists any; every tool of the config when the row has neither
    tools_kwargs nor need_tools_kwargs; none when it says it needs kwargs but lists none."""
    if env.tools is None:
        return [], {}
    extra = task.get("extra_info") or {}
    kwargs = _present(extra.get("tools_kwargs"))
    if kwargs:
        names = [n for n in env.tools.tools if n in kwargs]
        create = {n: dict((kwargs[n] or {}).get("create_kwargs") or {}) for n in names}
        return names, create
    if "need_tools_kwargs" in extra or "tools_kwargs" in extra:
        return [], {}
    return list(env.tools.tools), {}


def _present(value: Any) -> dict[str, Any]:
    """A kwargs mapping without its null entries: a parquet file with struct columns gives every row the keys
    of every other row (a no-tool row of a mixed file reads `{"calculate": null}`)."""
    if not isinstance(value, dict):
        return {}
    return {k: v for k, v in value.items() if v is not None}


async def run_trajectory(task: dict[str, Any], sample: int, model: Model, env: Environment, *,
                         model_name: str, limits: Limits | None = None,
                         verify_kwargs: dict[str, Any] | None = None,
                         prompt: list[dict[str, Any]] | None = None, trace: Trace | None = None,
                         judge: Judge | None = None) -> dict[str, Any]:
    """Roll out one (task, sample) and return its trajectory record (TRAJECTORY_SCHEMA). `prompt`: the messages
    to send instead of the task's own (bc-eval's, with images resolved and sized); `input` stays the task.
    `trace` sees every turn as it happens; `judge` grades a rubric's judge components (none: they are skipped)."""
    limits = _resolved(limits or _NO_LIMITS, env)
    started_at = datetime.now(timezone.utc)
    t0 = time.perf_counter()
    tid = task_id_of(task)
    identity = identity_of(task)
    state = _State([dict(m) for m in prompt] if prompt is not None else prompt_messages(task), trace=trace)
    names, create_kwargs = offered_tools(task, env)
    session = env.tools.session(create_kwargs, names, task=task) if env.tools is not None and names else None
    schemas = session.schemas if session else []
    ikwargs = _present((task.get("extra_info") or {}).get("interaction_kwargs"))
    interaction = env.interaction(ikwargs.get("name")) if ikwargs else None
    status, error, instance, tool_rewards, interaction_score = None, None, None, {}, None
    try:
        if ikwargs and interaction is None:
            raise _Stop("error", {"type": "unknown_interaction",
                                  "message": f"no interaction named {ikwargs.get('name')!r} for {env.data_source}"})
        if interaction is not None:
            instance = await interaction.start_interaction(None, identity=ikwargs.get("identity", identity))
        while True:
            if state.assistant >= limits.max_assistant_turns:
                raise _Stop("max_turns")
            reply = await _model_turn(state, model, ModelRequest(state.messages, schemas, task, tid, sample,
                                                                   state.assistant, env.policy,
                                                                   env.baselines))
            cut = reply.finish_reason == "length"
            calls = reply.message.get("tool_calls")
            if calls:  # a message cut off inside a call keeps its turn: every call gets its tool message
                _check_tool_budget(state, len(calls), limits)
                if session is None:
                    session = env.tools.session({}, []) if env.tools is not None else None
                for call in calls:
                    await _tool_turn(state, session, call, cut=cut)
            if cut:
                raise _Stop("length")
            if calls:
                if state.user >= limits.max_user_turns:
                    raise _Stop("max_turns")
                continue
            if interaction is None:
                raise _Stop("completed")
            if state.user >= limits.max_user_turns:
                raise _Stop("max_turns")
            if await _interaction_turn(state, interaction, instance):
                raise _Stop("completed")
    except _Stop as stop:
        status, error = stop.status, stop.error
    except Exception as exc:  # a bootcamp bug ends this trajectory, never the run
        status, error = "error", {"type": "internal_error", "message": f"{type(exc).__name__}: {exc}"}
    finally:
        if session is not None:
            tool_rewards = await session.close()
        if instance is not None:
            try:
                interaction_score = float(await interaction.calculate_score(instance))
            except Exception:
                interaction_score = None
            try:
                await interaction.finalize_interaction(instance)
            except Exception:
                pass

    try:
        if getattr(env.reward, "runs_code", False):  # it waits for a sandbox: let the other trajectories go on
            score = await asyncio.to_thread(verify_messages, env, state.messages, identity, verify_kwargs or {})
        else:
            score = verify_messages(env, state.messages, identity, verify_kwargs or {})
    except GraderUnavailable as exc:  # no grade, not a grade of 0: the row is an error, --resume plays it again
        score = 0.0
        status, error = "error", {"type": "grader_unavailable", "message": str(exc), "rollout_status": status}
    rubric = rubric_of(env.reward)
    graded = None
    if rubric is not None:  # the score is the components' weighted mean; a judge failure is the row's typed error
        graded = await grade_rubric(rubric, score, state.messages, identity, judge,
                                    skip_judge="the rollout ended in an error" if status == "error" else None,
                                    extract=env.reward.extract_output)
        score = graded.score
        if graded.judge_error:
            status, error = "error", {**graded.judge_error, "rollout_status": status}
    if trace is not None:
        trace("verdict", {"status": status, "error": error, "score": score,
                          "extracted": _extracted(env, state.messages)})
    reward: dict[str, Any] = {"score": score, "step_rewards": state.step_rewards, "tool_rewards": tool_rewards,
                              "turn_scores": state.turn_scores}
    if graded is not None:
        reward.update(components=graded.components, weights=graded.weights)
        if graded.judge is not None:
            reward["judge"] = graded.judge
    if interaction_score is not None:
        reward["interaction_score"] = interaction_score
    record = {
        "id": f"{tid}#{sample}", "task_id": tid, "input": task, "model": model_name, "sample": sample,
        "messages": state.messages, "tools": schemas, "turns": state.turns,
        "score": score, "reward": reward, "status": status, "error": error,
        "success": status == "completed" and score >= 1.0, **_stamp(env.reward.__module__),
        "usage": state.usage,
        "num_turns": {"assistant": state.assistant, "user": state.user, "tool_calls": state.tool_calls},
        "timing": {"started_at": started_at.isoformat().replace("+00:00", "Z"),
                   "wall_s": round(time.perf_counter() - t0, 6), "model_s": round(state.model_s, 6),
                   "tool_s": round(state.tool_s, 6), "interaction_s": round(state.interaction_s, 6)},
    }
    sandbox = _sandbox_record(env, identity)
    if sandbox is not None:
        record["sandbox"] = sandbox
    return record


_NO_LIMITS = Limits()
# (id(limits), id(env)) -> (limits, its fields then, env, resolved): the entry holds both, so their ids stay theirs
_RESOLVED: dict[tuple[int, int], tuple[Limits, Limits, Environment, Limits]] = {}


def _resolved(limits: Limits, env: Environment) -> Limits:
    """`limits.resolve(env)`, made once per (limits, environment) pair of the process rather than per trajectory
    (a `limits` changed since is resolved again)."""
    key = (id(limits), id(env))
    hit = _RESOLVED.get(key)
    if hit is not None and hit[1] == limits:
        return hit[3]
    resolved = limits.resolve(env)
    if len(_RESOLVED) < 1024:  # a run has a few environments and one Limits; a long-lived caller stays bounded
        _RESOLVED[key] = (limits, Limits(**vars(limits)), env, resolved)
    return resolved


_STAMPS: dict[str, dict[str, str]] = {}


def _stamp(module: str) -> dict[str, str]:
    """`code_stamp(module)` by the module's name (code_stamp caches by folder, after a Path and an import lookup)."""
    stamp = _STAMPS.get(module)
    if stamp is None:
        stamp = _STAMPS[module] = code_stamp(module)
    return stamp


class _Stop(Exception):
    def __init__(self, status: str, error: dict[str, Any] | None = None):
        self.status, self.error = status, error


def _check_tool_budget(state: _State, calls: int, limits: Limits) -> None:
    """Stop (running none of the message's calls) when they pass a cap or the user-turn budget."""
    turn = state.assistant - 1
    if calls > limits.max_tool_calls_per_turn:
        raise _Stop("max_turns", {"type": "too_many_tool_calls",
                                  "message": f"assistant turn {turn} asked for {calls} tool calls; at most "
                                             f"{limits.max_tool_calls_per_turn} run per turn "
                                             "(--max-tool-calls-per-turn)"})
    if state.tool_calls + calls > limits.max_tool_calls:
        raise _Stop("max_turns", {"type": "tool_call_limit",
                                  "message": f"assistant turn {turn} asked for {calls} more tool calls after "
                                             f"{state.tool_calls}; at most {limits.max_tool_calls} run per "
                                             "trajectory (--max-tool-calls)"})
    if state.user + calls > limits.max_user_turns:
        raise _Stop("max_turns")


async def _model_turn(state: _State, model: Model, request: ModelRequest) -> ModelReply:
    index = state.assistant
    if state.trace is not None:  # the slice and the keywords cost a few µs a call: only for a trace
        state.emit("request", turn=index, total=len(state.messages), messages=state.messages[state.sent:])
    state.sent = len(state.messages)
    started = time.perf_counter()
    try:
        reply = await model.complete(request)
    except ModelError as exc:
        latency = time.perf_counter() - started
        state.model_s += latency
        state.turns.append({"type": "model", "index": index, "latency_s": round(latency, 6),
                            "attempts": exc.attempts, "error": exc.as_dict()})
        if state.trace is not None:
            state.emit("reply", turn=index, latency_s=latency, error=exc.as_dict())
        raise _Stop("error", exc.as_dict()) from None
    state.model_s += reply.latency_s
    message = reply.message
    for j, call in enumerate(message.get("tool_calls") or []):
        if not call.get("id") or call["id"] in state.call_ids:  # keep tool_call_id pairing unambiguous
            call["id"] = f"call_{index}_{j}"
        state.call_ids.add(call["id"])
    state.messages.append(message)
    state.sent = len(state.messages)
    state.assistant += 1
    turn: dict[str, Any] = {"type": "model", "index": index, "latency_s": round(reply.latency_s, 6),
                            "usage": reply.usage or {}, "finish_reason": reply.finish_reason, "error": None}
    if reply.attempts > 1:
        turn["attempts"] = reply.attempts
    if reply.tokens:  # --record-tokens: the ids and logprobs the server sent, as it sent them
        turn["tokens"] = reply.tokens
    state.turns.append(turn)
    if state.trace is not None:
        state.emit("reply", turn=index, message=message, finish_reason=reply.finish_reason, usage=reply.usage,
                   latency_s=reply.latency_s, attempts=reply.attempts, error=None)
    for key, value in (reply.usage or {}).items():
        if key in state.usage:
            state.usage[key] += value
    return reply


async def _tool_turn(state: _State, session: Any, call: dict[str, Any], cut: bool = False) -> None:
    fn = call["function"]
    started = time.perf_counter()
    if cut and not _complete_json(fn["arguments"]):  # the model ran out of tokens inside this call
        text = ('Error: the tool call was cut off at the token limit (finish_reason "length"): its arguments '
                "are incomplete JSON, so it did not run.")
        reward, metrics, error = 0.0, {}, {"type": "invalid_arguments", "message": text}
    elif session is None:
        text = f"Error: unknown tool {fn['name']!r}. Available tools: none."
        reward, metrics, error = 0.0, {}, {"type": "unknown_tool", "message": text}
    else:
        result = await session.call(fn["name"], fn["arguments"])
        text, reward, metrics, error = result.text, result.reward, result.metrics, result.error
    latency = time.perf_counter() - started
    state.tool_s += latency
    state.tool_calls += 1
    state.user += 1
    state.step_rewards.append(reward)
    state.messages.append({"role": "tool", "tool_call_id": call["id"], "content": text})
    state.sent = len(state.messages)  # the trace shows tool results here, not again in the next request
    state.turns.append({"type": "tool", "index": state.assistant - 1, "name": fn["name"], "call_id": call["id"],
                        "latency_s": round(latency, 6), "reward": reward, "metrics": metrics, "error": error})
    if state.trace is not None:
        state.emit("tool", name=fn["name"], call_id=call["id"], arguments=fn["arguments"], text=text,
                   latency_s=latency, reward=reward, error=error)


def _complete_json(arguments: Any) -> bool:
    if not isinstance(arguments, str):
        return True
    try:
        orjson.loads(arguments)
    except orjson.JSONDecodeError:
        return False
    return True


async def _interaction_turn(state: _State, interaction: Any, instance: str) -> bool:
    """Let the interaction speak; True when it terminates the trajectory."""
    started = time.perf_counter()
    reply = await interaction.generate_response(instance, state.messages)
    terminate, text, score, extra = InteractionReply.of(reply, f"interaction {interaction.name}")
    latency = time.perf_counter() - started
    state.interaction_s += latency
    state.turn_scores.append(float(score))
    turn: dict[str, Any] = {"type": "interaction", "index": state.assistant - 1, "name": interaction.name,
                            "latency_s": round(latency, 6), "score": float(score), "terminate": bool(terminate),
                            "text": text, "error": None}
    if extra:
        turn["extra"] = extra
    state.turns.append(turn)
    state.emit("interaction", name=interaction.name, text=text, score=float(score), terminate=bool(terminate),
               latency_s=latency)
    if terminate:
        return True
    state.messages.append({"role": "user", "content": text})
    state.sent = len(state.messages)
    state.user += 1
    return False


def _extracted(env: Environment, messages: list[dict[str, Any]]) -> Any:
    """What the verifier extracts from the graded text (for the trace); None when it extracts nothing."""
    try:
        graded = assistant_texts(messages) if env.reward.grades == "all" else final_assistant_text(messages)
        return env.reward.extract_output(graded)
    except Exception:
        return None


def verify_messages(env: Environment, messages: list[dict[str, Any]], identity: Any, kwargs: dict[str, Any]) -> float:
    """The verifier's score of a conversation (a failing verifier scores 0; GraderUnavailable, the grader's own
    failure, goes through); the loop's grade, and --rescore's."""
    try:  # the last assistant message, or all of them for a `grades = "all"` verifier
        return float(env.reward.verify_score(messages, identity, **kwargs))
    except GraderUnavailable:  # the grader could not run: the caller records no score
        raise
    except Exception:  # verify_score guards the verifier; this guards a custom override of it
        return 0.0


def _sandbox_record(env: Environment, identity: Any) -> dict[str, Any] | None:
    """Where a verifier that runs model code ran it (sandbox name, unsandboxed, limits); None for the others."""
    describe = getattr(env.reward, "sandbox_record", None)
    if describe is None:
        return None
    try:
        return dict(describe(identity))
    except Exception as exc:  # the verifier could not run the code either: the row says why
        return {"sandbox": None, "error": f"{type(exc).__name__}: {exc}"}
