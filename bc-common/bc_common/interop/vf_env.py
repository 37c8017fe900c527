"""Our bootcamps as a verifiers 0.4 environment (the `verifiers` extra): taskset, harness and reward.

verifiers finds an environment by its taskset id, a top-level package exporting a `Taskset` (and here also the
`Harness` that plays it): `bc_verifiers`, id `bc-verifiers`. So `vf-eval bc-verifiers --env.taskset.bootcamp
knapsack -n 20 -m MODEL --client.base-url URL`, and `vf.load_environment(...)` from Python (prime-rl's path),
load any bootcamp:

- the dataset is bc-gen's rows (`--env.taskset.tasks FILE` of `bc-gen` output, or `bootcamp`, `n`, `seed`,
  `split`, `groups`: task *i* of `bc_common.tasks.TaskSet`, row for row what `bc-gen` writes);
- the harness is bc-eval's rollout loop (`bc_common.interop.stepped`) with every model call sent through
  verifiers' interception endpoint, so the trace records each turn: our tools run as its tools, our interaction's
  replies are the environment's user turns, our turn budgets hold;
- the reward `bootcamp_score` is our verifier over the trace's own messages (the recorded conversation), and the
  loop's row lands on `trace.info["bootcamp"]` (status, error, step and turn rewards).
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..extras import install_hint, missing_modules

if missing_modules(["verifiers"]):  # say what to install, not just which import failed
    raise ImportError(f"bc_common.interop.vf_env needs the verifiers extra, in a virtualenv of its own (its pins "
                      f"conflict with ours): {install_hint('verifiers').split(' (or:')[0]} there, or `make test-interop` "
                      "builds .venv-verifiers; docs/interop-verifiers.md")

import openai
import verifiers.v1 as vf
from verifiers.v1.runtimes import ProgramResult

from ..environment import Environments, identity_of
from ..readers import read_records
from ..rollout import verify_messages
from ..tasks import TaskSet
from .stepped import SteppedTrajectory

_ENVIRONMENTS = Environments()  # one per process: tool and interaction objects shared, their state per trajectory


class BootcampTasksetConfig(vf.TasksetConfig):
    """Which rows: a bc-gen file, or task *i* of a bootcamp (`--env.taskset.*`)."""

    bootcamp: str = ""
    """A bootcamp name (`bc-gen --list`); its tasks 0..n-1 under `seed` and `split`."""
    tasks: str = ""
    """A file of task rows (bc-gen's JSONL or parquet); it may mix bootcamps. Wins over `bootcamp`."""
    n: int = 20
    seed: int = 0
    split: str = "train"
    groups: list[str] = []


class BootcampData(vf.TaskData):
    row: dict[str, Any]
    """The task row, verbatim as bc-gen wrote it (identity, tools_kwargs, interaction_kwargs and all)."""


class BootcampTask(vf.Task[BootcampData, vf.State, vf.TaskConfig]):
    @property
    def key(self) -> str:
        return self.data.id or self.hash

    @vf.reward
    async def bootcamp_score(self, task: BootcampData, trace: vf.Trace) -> float:
        """Our verifier over the conversation the trace recorded (assistant text only, as under bc-eval)."""
        env = _ENVIRONMENTS.get(task.row["data_source"])
        return verify_messages(env, [openai_message(m) for m in trace.messages], identity_of(task.row), {})


class BootcampTaskset(vf.Taskset[BootcampTask, BootcampTasksetConfig]):
    def load(self) -> Iterator[BootcampTask]:
        for row in task_rows(self.config):
            yield BootcampTask(BootcampData(id=row.get("id"), name=row.get("id"), prompt=row["prompt"], row=row),
                               self.config.task)


class BootcampEnvConfig(vf.SingleAgentEnvConfig):
    agent: vf.AgentConfig = vf.AgentConfig(runtime=vf.SubprocessConfig())
    """The one seat. Its runtime is local by default: the harness runs in this process and needs no box."""


class BootcampEnv(vf.Env[BootcampEnvConfig]):
    """One seat playing the taskset, as verifiers' SingleAgentEnv, on a local runtime unless told otherwise."""

    async def run(self, task: vf.Task, agents: vf.Agents) -> None:
        await agents.agent.run(task)


class BootcampHarnessConfig(vf.HarnessConfig):
    id: str = "bc-verifiers"


class BootcampHarness(vf.Harness[BootcampHarnessConfig]):
    """bc-eval's rollout loop, in process, every model call through verifiers' interception endpoint."""

    APPENDS_SYSTEM_PROMPT = True
    EXECUTES_CODE = False  # our tools are the bootcamp's; model code runs only in our own sandbox
    NEEDS_CONTAINER = False

    async def launch(self, ctx: Any, trace: Any, runtime: Any, endpoint: str, secret: str,
                     mcp_urls: dict[str, str], data: vf.TaskData, tool_interception_url: str | None = None
                     ) -> ProgramResult:
        row = getattr(trace.task.data, "row", None) or getattr(data, "row", None)
        if not isinstance(row, dict):
            return ProgramResult(2, "", "the bc-verifiers harness plays bc-verifiers tasks (their data has a row)")
        episode = SteppedTrajectory(row, _ENVIRONMENTS.get(row["data_source"]), model_name=ctx.model)
        async with openai.AsyncOpenAI(base_url=endpoint, api_key=secret, max_retries=0) as client:
            try:
                turn = await episode.start()
                while not turn.done:
                    options: dict[str, Any] = {"tools": turn.tools} if turn.tools else {}
                    completion = await client.chat.completions.create(model=ctx.model, messages=turn.messages,
                                                                      **options)
                    choice = completion.choices[0]
                    turn = await episode.step(choice.message.model_dump(exclude_none=True), choice.finish_reason)
            finally:
                await episode.close()
        record = turn.record or {}
        trace.info["bootcamp"] = {key: record.get(key) for key in ("task_id", "status", "error", "score", "reward",
                                                                   "num_turns")}
        return ProgramResult(0, "", "")


def task_rows(config: BootcampTasksetConfig) -> Iterator[dict[str, Any]]:
    """The rows a taskset config names: a bc-gen file's, or task 0..n-1 of a bootcamp."""
    if config.tasks:
        yield from (record.data for record in read_records([config.tasks]))
        return
    if not config.bootcamp:
        raise ValueError("bc-verifiers needs --env.taskset.bootcamp NAME or --env.taskset.tasks FILE")
    tasks = TaskSet(config.bootcamp, seed=config.seed, split=config.split, groups=config.groups or None)
    for index in range(config.n):
        yield tasks[index]


def openai_message(message: Any) -> dict[str, Any]:
    """A verifiers message (pydantic) as the OpenAI chat dict our verifiers read."""
    data = message.model_dump(exclude_none=True) if hasattr(message, "model_dump") else dict(message)
    calls = data.pop("tool_calls", None)
    if calls:
        data["tool_calls"] = [{"id": c.get("id", ""), "type": "function",
                               "function": {"name": c.get("name", ""), "arguments": c.get("arguments", "")}}
                              for c in calls]
    return data
