"""A NeMo Gym 0.4 resources server for any bootcamp (the `nemo-gym` extra; NeMo Gym needs Python >= 3.12).

NeMo Gym puts an agent server between a model server and a resources server (the environment). Ours,
`BootcampResourcesServer`, speaks both of NeMo Gym's resources-server protocols, so its stock agents play our
bootcamps:

- `simple_agent` (NeMo Gym's tool-calling loop): `POST /seed_session` with the dataset row starts the rollout's
  session (the task's tool instances, keyed by NeMo Gym's session cookie); each tool of the task is an endpoint
  `POST /<tool name>` that takes the call's JSON arguments and answers the tool's text, exactly what bc-eval's
  loop would put in the tool message; `POST /verify` scores the conversation NeMo Gym recorded (the prompt and
  every output item) with our verifier (and rubric): the score bc-eval gives that conversation. The agent ends at
  the first answer without tool calls, so a bootcamp whose environment replies to answers (an interaction:
  feedback and retries, an opponent) is played to the end only by
- `gymnasium_agent` (NeMo Gym's reset/step loop): `POST /reset` starts one trajectory of bc-eval's own rollout
  loop (`bc_common.interop.stepped`); `POST /step` hands it the model's whole response: its tool results come
  back as `info.tool_outputs`, the interaction's reply as the observation, the end with `reward` = our
  verifier's score and `terminated` (completed) or `truncated` (a turn budget, the length limit). Every turn
  budget, tool-call cap and argument check is bc-eval's.

A dataset row (`nemo_gym_project export` writes them from bc-gen's rows) has NeMo Gym's `responses_create_params`
(the prompt as input messages, the task's tools as function tools) and `task`, the bc-gen row verbatim; or, instead
of `task`, `bootcamp`, `index`, `seed`, `split`: task *i* of a bootcamp, the row `bc-gen` writes (`bootcamp`
defaults to the server's `bootcamp` config). A request the server cannot use is refused with a typed error naming where:
`{"error": {"type": "unknown_bootcamp", "message": "POST /seed_session: field 'task.data_source': ...",
"source": "POST /seed_session: field 'task.data_source'"}}`.

    python -m bc_common.interop.nemo_gym_project init gym-project      # the server's folder and NeMo Gym config
    python -m bc_common.interop.nemo_gym_project export tasks.jsonl -o gym-project/data/tasks.jsonl
    cd gym-project && gym env start --config ... && gym eval run --no-serve ...   # docs/interop-nemo-gym.md
"""
from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from ..extras import install_hint, missing_modules

if missing_modules(["nemo_gym", "resources_servers.gymnasium"]):  # say what to install, not just which import failed
    raise ImportError(f"bc_common.interop.nemo_gym_env needs the nemo-gym extra (Python >= 3.12), in a virtualenv of "
                      f"its own (its pins conflict with ours): {install_hint('nemo-gym').split(' (or:')[0]} there, or "
                      "`make test-interop` builds one; docs/interop-nemo-gym.md")

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, PlainTextResponse
from nemo_gym.base_resources_server import (
    BaseResourcesServerConfig,
    BaseSeedSessionRequest,
    BaseSeedSessionResponse,
    BaseVerifyRequest,
    BaseVerifyResponse,
    SimpleResourcesServer,
)
from nemo_gym.openai_utils import NeMoGymResponseCreateParamsNonStreaming
from nemo_gym.responses_converter import ResponsesConverter
from nemo_gym.server_utils import SESSION_ID_KEY
from pydantic import ConfigDict, Field, PrivateAttr
from resources_servers.gymnasium import EnvResetRequest, EnvResetResponse, EnvStepRequest, EnvStepResponse

from ..environment import Environment, Environments, identity_of
from ..errors import BcError, InputError
from ..records import check_task, task_id
from ..rollout import Limits, offered_tools, verify_messages
from ..rubric import grade_rubric, rubric_of
from ..tasks import TaskSet
from ..tool_runtime import ToolSession
from ..types import InteractionReply
from .nemo_gym_project import data_source
from .stepped import SteppedTrajectory, Turn, clean_assistant

# NeMo Gym's own endpoints on a resources server (and the Gymnasium pair): a tool of the same name would be
# shadowed by them, so a task offering one is refused
RESERVED = frozenset({"seed_session", "verify", "aggregate_metrics", "reset", "step", "mcp", "stats"})
STEP_STATUSES = {"completed": "terminated", "error": "terminated", "max_turns": "truncated", "length": "truncated"}


class RequestError(InputError):
    """A request the server cannot use: `kind` is the error's type, `source` where it is (endpoint and field)."""

    def __init__(self, kind: str, message: str, source: str, status: int = 400):
        self.kind, self.status = kind, status
        super().__init__(message, source)

    def response(self) -> JSONResponse:
        return JSONResponse({"error": {"type": self.kind, "message": str(self), "source": self.source}},
                            status_code=self.status)


class BootcampResourcesServerConfig(BaseResourcesServerConfig):
    """The server's part of NeMo Gym's config (`resources_servers: bootcamp: {...}`)."""

    bootcamp: str = ""
    """What a row naming neither `task` nor `bootcamp` plays (task `index` of it); empty: such rows are refused."""
    bootcamps: list[str] = Field(default_factory=list)
    """The bootcamps this server serves; empty: any installed bootcamp."""
    seed: int = 0
    split: str = "train"
    max_sessions: int = 4096
    """Open sessions kept; past it the oldest (a rollout that never reached /verify or its last /step) is closed."""


class BootcampSeedSessionRequest(BaseSeedSessionRequest):
    """The dataset row, as NeMo Gym's agents send it (every field of the row, so `extra` is allowed)."""

    model_config = ConfigDict(extra="allow")

    task: dict[str, Any] | None = None
    bootcamp: str | None = None
    index: int = 0
    seed: int | None = None
    split: str | None = None


class BootcampVerifyRequest(BaseVerifyRequest):
    model_config = ConfigDict(extra="allow")


class BootcampVerifyResponse(BaseVerifyResponse):
    """NeMo Gym's verify response (the request echoed, `reward`) and `bootcamp`: task id, status, tool calls."""

    model_config = ConfigDict(extra="allow")

    bootcamp: dict[str, Any] = Field(default_factory=dict)


@dataclass
class _Session:
    """One rollout: its task, the bootcamp's environment, and either the tool instances (simple_agent) or the
    trajectory (gymnasium_agent)."""

    row: dict[str, Any]
    env: Environment
    limits: Limits
    tools: ToolSession | None = None
    calls: int = 0
    refused: int = 0
    episode: SteppedTrajectory | None = None
    turn: Turn | None = None

    async def close(self) -> dict[str, float]:
        rewards: dict[str, float] = {}
        if self.tools is not None:
            rewards = await self.tools.close()
        if self.episode is not None:
            await self.episode.close()
        return rewards


class BootcampResourcesServer(SimpleResourcesServer):
    """Any bootcamp as a NeMo Gym resources server; NeMo Gym starts it from its folder's app.py (`init`)."""

    config: BootcampResourcesServerConfig
    _environments: Environments = PrivateAttr(default_factory=Environments)
    _sessions: OrderedDict[str, _Session] = PrivateAttr(default_factory=OrderedDict)
    _closing: set[asyncio.Future] = PrivateAttr(default_factory=set)  # sessions replaced or evicted, closing

    def model_post_init(self, context: Any) -> None:
        super().model_post_init(context)
        for key, names in (("bootcamp", [self.config.bootcamp] if self.config.bootcamp else []),
                           ("bootcamps", self.config.bootcamps)):
            for name in names:  # a name that is wrong fails when the server starts, not in the first rollout
                self._environment(data_source(name), f"config {self.config.name}: field {key!r}")

    def setup_webserver(self) -> FastAPI:
        app = super().setup_webserver()  # /seed_session, /verify, /aggregate_metrics and NeMo Gym's session cookie
        app.post("/reset")(self.reset)
        app.post("/step")(self.step)
        app.post("/{tool_name}")(self.call_tool)  # after the fixed routes: they win over a tool of the same name
        app.add_exception_handler(RequestError, lambda request, exc: exc.response())
        return app

    # ---- simple_agent: seed_session, the tools, verify ----

    async def seed_session(self, request: Request, body: BootcampSeedSessionRequest) -> BaseSeedSessionResponse:
        """Start the rollout's session: the row's task and its tool instances (created at their first call)."""
        session = self._open(request, body.model_dump(), "POST /seed_session")
        names, create_kwargs = offered_tools(session.row, session.env)
        reserved = sorted(RESERVED.intersection(names))
        if reserved:
            self._sessions.pop(_session_id(request), None)
            raise RequestError("reserved_tool_name", f"the task offers a tool named {reserved[0]!r}, which is one of "
                               "NeMo Gym's endpoints on a resources server; play it with gymnasium_agent",
                               "POST /seed_session: field 'task'")
        if session.env.tools is not None and names:
            session.tools = session.env.tools.session(create_kwargs, names, task=session.row)
        return BaseSeedSessionResponse()

    async def call_tool(self, tool_name: str, request: Request) -> PlainTextResponse:
        """One tool call (the JSON arguments as the body): the tool's text, what bc-eval's tool message holds."""
        where = f"POST /{tool_name}"
        session = self._sessions.get(_session_id(request))
        if session is None or session.episode is not None:
            raise RequestError("no_session", "no tool session for this rollout: call /seed_session with the row "
                               "first (NeMo Gym's simple_agent does)", f"{where}: session cookie", 409)
        raw = await request.body()
        session.calls += 1
        cap = min(session.limits.max_tool_calls, session.limits.max_user_turns)
        if session.calls > cap:  # bc-eval stops the trajectory here (status max_turns); the agent decides here
            session.refused += 1
            return PlainTextResponse(f"Error: at most {cap} tool calls run per trajectory (--max-tool-calls); this "
                                     "one did not run.")
        if session.tools is None:  # as bc-eval answers a call when the task offers no tools
            return PlainTextResponse(f"Error: unknown tool {tool_name!r}. Available tools: none.")
        result = await session.tools.call(tool_name, raw.decode("utf-8", "replace") if raw else "")
        return PlainTextResponse(result.text)

    async def verify(self, request: Request, body: BootcampVerifyRequest) -> BootcampVerifyResponse:
        """Our verifier's score of the conversation NeMo Gym recorded; the session (if any) is released."""
        where = "POST /verify"
        session = self._sessions.pop(_session_id(request), None)
        if session is None:  # an agent that skipped /seed_session: the row is in the body too
            session = self._open_row(body.model_dump(), where)
        tool_rewards = await session.close()
        messages = chat_messages([*_items(body.responses_create_params.input), *body.response.output],
                                 f"{where}: field 'response'")
        identity = identity_of(session.row)
        reward = await score_conversation(session.env, messages, identity)
        status = "max_turns" if session.refused else await _cut_short(session, messages)
        info = {"task_id": task_id(session.row), "data_source": session.row["data_source"], "status": status,
                "tool_calls": session.calls, "tool_rewards": tool_rewards}
        if status == "cut_short":
            info["note"] = ("the bootcamp's environment replies to this answer (feedback, a retry, a move) and "
                            "simple_agent stops at it: gymnasium_agent plays the episode to its end")
        return BootcampVerifyResponse(**body.model_dump(), reward=reward, bootcamp=info)

    # ---- gymnasium_agent: reset, step ----

    async def reset(self, request: Request, body: EnvResetRequest) -> EnvResetResponse:
        """Start one trajectory of bc-eval's loop for the row; the prompt is the row's own input."""
        session = self._open(request, body.model_extra or {}, "POST /reset")
        session.episode = SteppedTrajectory(session.row, session.env, model_name="nemo-gym")
        session.turn = await session.episode.start()
        return EnvResetResponse(observation=None, info={"task_id": task_id(session.row),
                                                        "tools": [s["function"]["name"] for s in session.turn.tools]})

    async def step(self, request: Request, body: EnvStepRequest) -> EnvStepResponse:
        """The model's response as the trajectory's next assistant message; what the environment answers."""
        where = "POST /step"
        key = _session_id(request)
        session = self._sessions.get(key)
        if session is None or session.episode is None:
            raise RequestError("no_session", "no episode for this rollout: call /reset with the row first (NeMo "
                               "Gym's gymnasium_agent does)", f"{where}: session cookie", 409)
        if session.turn is not None and session.turn.done:
            raise RequestError("episode_ended", "this episode has ended; /reset starts the next", where, 409)
        message = _one_message(chat_messages(body.response.output, f"{where}: field 'response.output'"))
        original_ids = [c.get("id") for c in message.get("tool_calls") or []]
        incomplete = body.response.incomplete_details
        finish = "length" if incomplete is not None and incomplete.reason == "max_output_tokens" else None
        session.turn = turn = await session.episode.step(message, finish)
        if turn.done:
            self._sessions.pop(key, None)
            record = turn.record or {}
            ending = STEP_STATUSES.get(record.get("status"), "terminated")
            return EnvStepResponse(observation=None, reward=float(record.get("score") or 0.0),
                                   terminated=ending == "terminated", truncated=ending == "truncated",
                                   info=_ending(record))
        tools = [m for m in turn.new if m.get("role") == "tool"]
        replies = [str(m.get("content") or "") for m in turn.new if m.get("role") == "user"]
        outputs = [{"call_id": original_ids[i] if i < len(original_ids) and original_ids[i] else m["tool_call_id"],
                    "output": str(m.get("content") or "")} for i, m in enumerate(tools)]
        return EnvStepResponse(observation="\n\n".join(replies) or None, reward=0.0,
                               info={"task_id": task_id(session.row), "tool_outputs": outputs})

    # ---- sessions ----

    def _open(self, request: Request, body: dict[str, Any], where: str) -> _Session:
        """A new session for the row in `body` under this request's NeMo Gym session id (a reseed replaces one)."""
        session = self._open_row(body, where)
        key = _session_id(request)
        old = self._sessions.pop(key, None)
        if old is not None:
            self._close_later(old)
        self._sessions[key] = session
        while len(self._sessions) > self.config.max_sessions:
            self._close_later(self._sessions.popitem(last=False)[1])
        return session

    def _close_later(self, session: _Session) -> None:
        closing = asyncio.ensure_future(session.close())
        self._closing.add(closing)  # held until done: the loop keeps only a weak reference to a task
        closing.add_done_callback(self._closing.discard)

    def _open_row(self, body: dict[str, Any], where: str) -> _Session:
        row = self._row(body, where)
        env = self._environment(row["data_source"], f"{where}: field 'task.data_source'")
        return _Session(row, env, Limits().resolve(env))

    def _row(self, body: dict[str, Any], where: str) -> dict[str, Any]:
        """The task row a request names: `task` (a bc-gen row), else task `index` of `bootcamp` (or the default)."""
        task = body.get("task")
        if task is not None:
            try:
                check_task(task)
            except InputError as exc:
                field_name = f"task.{exc.field}" if exc.field else "task"
                raise RequestError("invalid_task", f"not a task row: {exc.reason}",
                                   f"{where}: field {field_name!r}") from None
            return task
        name = body.get("bootcamp") or self.config.bootcamp
        if not name:
            raise RequestError("missing_task", "the row needs `task` (a bc-gen row, as `export` writes) or "
                               "`bootcamp` and `index` (this server has no default bootcamp)", f"{where}: field 'task'")
        source = f"{where}: field 'bootcamp'" if body.get("bootcamp") else f"config {self.config.name}: field 'bootcamp'"
        index = body.get("index") or 0
        if isinstance(index, bool) or not isinstance(index, int) or index < 0:
            raise RequestError("invalid_index", "`index` must be a task number (an integer >= 0)",
                               f"{where}: field 'index'")
        self._environment(data_source(name), source)
        seed = body.get("seed")
        try:
            return TaskSet(_bootcamp_name(name), seed=self.config.seed if seed is None else int(seed),
                           split=body.get("split") or self.config.split)[index]
        except (BcError, ValueError, TypeError) as exc:
            raise RequestError("invalid_task", str(exc), source) from None

    def _environment(self, data_source: Any, source: str) -> Environment:
        if not isinstance(data_source, str) or not data_source:
            raise RequestError("invalid_task", "the data_source must be a bootcamp's name", source)
        name = _bootcamp_name(data_source)
        if self.config.bootcamps and name not in {_bootcamp_name(b) for b in self.config.bootcamps}:
            raise RequestError("bootcamp_not_served", f"this server serves {', '.join(self.config.bootcamps)}, "
                               f"not {name!r}", source, 404)
        try:
            return self._environments.get(data_source)
        except Exception as exc:  # the catalog's RegistryError, or a bootcamp that cannot load here (its extra)
            kind = "unknown_bootcamp" if "unknown bootcamp" in str(exc) else "bootcamp_unavailable"
            raise RequestError(kind, f"{exc}" if isinstance(exc, BcError) else f"{type(exc).__name__}: {exc}",
                               source, 404) from None


def _session_id(request: Request) -> str:
    return request.session[SESSION_ID_KEY]  # NeMo Gym's session middleware sets it on every request


def _bootcamp_name(name: str) -> str:
    return name.removeprefix("bootcamp/")


def _items(value: Any) -> list[Any]:
    return [{"role": "user", "content": value}] if isinstance(value, str) else list(value)


def chat_messages(items: list[Any], source: str) -> list[dict[str, Any]]:
    """NeMo Gym's Responses items (input messages, output messages, function calls and their outputs) as the
    OpenAI chat messages our loop and verifiers read, converted by NeMo Gym's own converter (what its model
    server sends the model): one assistant message per model turn, its text and its tool calls."""
    try:
        params = NeMoGymResponseCreateParamsNonStreaming(input=[_plain(i) for i in items])
        converted = ResponsesConverter(return_token_id_information=False, uses_reasoning_parser=False) \
            .responses_to_chat_completion_create_params(params)
    except Exception as exc:  # a pydantic error or an item the converter does not know
        raise RequestError("invalid_conversation", f"the conversation cannot be read: {exc}", source) from None
    messages = []
    for message in converted.messages:
        data = message.model_dump(exclude_none=True) if hasattr(message, "model_dump") else dict(message)
        if data.get("role") == "assistant":
            messages.append(clean_assistant(data))
        else:
            messages.append({k: v for k, v in data.items() if k in ("role", "content", "tool_call_id", "name")})
    return messages


def _plain(item: Any) -> Any:
    return item.model_dump(exclude_none=True) if hasattr(item, "model_dump") else item


def _one_message(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """One model response as one assistant message (its text parts joined, its calls in order)."""
    message: dict[str, Any] = {"role": "assistant", "content": ""}
    for m in messages:
        if m.get("role") == "assistant":
            message["content"] += m.get("content") or ""
            if m.get("tool_calls"):
                message.setdefault("tool_calls", []).extend(m["tool_calls"])
    return message


async def score_conversation(env: Environment, messages: list[dict[str, Any]], identity: Any) -> float:
    """The score bc-eval's loop gives a conversation: the verifier's (the final answer, or every assistant
    message for a `grades = "all"` verifier), through the bootcamp's rubric when it has one (without a judge)."""
    if getattr(env.reward, "runs_code", False):
        score = await asyncio.to_thread(verify_messages, env, messages, identity, {})
    else:
        score = verify_messages(env, messages, identity, {})
    rubric = rubric_of(env.reward)
    if rubric is not None:
        score = (await grade_rubric(rubric, score, messages, identity, None, extract=env.reward.extract_output)).score
    return float(score)


async def _cut_short(session: _Session, messages: list[dict[str, Any]]) -> str:
    """'completed', or 'cut_short' when the bootcamp's interaction would answer the final message instead of
    ending the episode (bc-eval's loop would go on)."""
    ikwargs = (session.row.get("extra_info") or {}).get("interaction_kwargs") or {}
    interaction = session.env.interaction(ikwargs.get("name")) if ikwargs else None
    if interaction is None or not messages or messages[-1].get("role") != "assistant" \
            or messages[-1].get("tool_calls"):
        return "completed"
    try:
        instance = await interaction.start_interaction(None, identity=ikwargs.get("identity", identity_of(session.row)))
        try:
            reply = await interaction.generate_response(instance, messages)
            terminate = InteractionReply.of(reply, f"interaction {interaction.name}")[0]
        finally:
            await interaction.finalize_interaction(instance)
    except Exception:  # a bootcamp bug: the score stands, the status says the episode's end is unknown
        return "interaction_error"
    return "completed" if terminate else "cut_short"


def _ending(record: dict[str, Any]) -> dict[str, Any]:
    reward = record.get("reward") or {}
    return {"task_id": record.get("task_id"), "status": record.get("status"), "error": record.get("error"),
            "score": record.get("score"), "step_rewards": reward.get("step_rewards"),
            "turn_scores": reward.get("turn_scores"), "num_turns": record.get("num_turns")}
