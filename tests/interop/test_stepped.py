"""The peer-free half of the adapters (no extra needed): bc-eval's loop driven one message at a time, and a
built-in policy served as an OpenAI endpoint, read by the official `openai` client."""
from __future__ import annotations

import asyncio
import importlib

import openai
import pytest

from bc_common.builtin_model import BuiltinModel
from bc_common.environment import Environments
from bc_common.extras import missing_modules
from bc_common.interop.policy_server import PolicyServer
from bc_common.interop.stepped import SteppedTrajectory
from bc_common.model import ModelRequest
from bc_common.records import task_id
from bc_common.rollout import Limits, run_trajectory
from bc_common.tasks import TaskSet

from .conftest import BOOTCAMPS, MODELS

ENVS = Environments()


async def play_stepped(row: dict, model_name: str, limits: Limits | None = None) -> dict:
    env = ENVS.get(row["data_source"])
    model = BuiltinModel(model_name)
    episode = SteppedTrajectory(row, env, limits=limits)
    turn = await episode.start()
    assistant = 0
    while not turn.done:
        reply = await model.complete(ModelRequest(turn.messages, turn.tools, row, task_id(row), 0, assistant,
                                                  env.policy, env.baselines))
        assistant += 1
        turn = await episode.step(reply.message)
    return turn.record


@pytest.mark.parametrize("name", BOOTCAMPS)
@pytest.mark.parametrize("model_name", MODELS)
def test_a_stepped_trajectory_is_the_loops_own(name, model_name):
    """Same messages, status and score as the rollout loop playing the model itself."""
    tasks = TaskSet(name, seed=5)
    for index in range(3):
        row = tasks[index]
        env = ENVS.get(row["data_source"])
        direct = asyncio.run(run_trajectory(row, 0, BuiltinModel(model_name), env, model_name=model_name))
        stepped = asyncio.run(play_stepped(row, model_name))
        assert (stepped["messages"], stepped["status"], stepped["score"], stepped["reward"]) == \
               (direct["messages"], direct["status"], direct["score"], direct["reward"])


def test_the_loops_budgets_hold_for_an_outside_model():
    """A model that never stops calling tools is stopped by the same turn budget as under bc-eval."""
    row = TaskSet("knapsack", seed=5)[0]

    async def spam() -> dict:
        episode = SteppedTrajectory(row, ENVS.get(row["data_source"]), limits=Limits(max_assistant_turns=3))
        turn = await episode.start()
        calls = 0
        while not turn.done:
            calls += 1
            turn = await episode.step({"content": "", "tool_calls": [
                {"id": f"c{calls}", "type": "function",
                 "function": {"name": "evaluate_selection", "arguments": '{"items": [1]}'}}]})
        return turn.record

    record = asyncio.run(spam())
    assert record["status"] == "max_turns" and record["num_turns"]["assistant"] == 3 and record["score"] == 0.0


def test_an_unfinished_trajectory_releases_its_tools():
    """A peer that drops a session mid-task (closes it) leaves no tool instance behind."""
    row = TaskSet("knapsack", seed=5)[1]
    env = ENVS.get(row["data_source"])
    tool = env.tools.tools["evaluate_selection"]
    before = set(tool._instances)

    async def abandon() -> tuple[int, int]:
        episode = SteppedTrajectory(row, env)
        await episode.start()
        await episode.step({"content": "", "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "evaluate_selection", "arguments": '{"items": [1]}'}}]})
        live = len(set(tool._instances) - before)
        await episode.close()
        return live, len(set(tool._instances) - before)

    assert asyncio.run(abandon()) == (1, 0)


def test_the_policy_server_answers_as_the_policy_does():
    """The official openai client gets the reference policy's first move; the server knows tasks by prompt."""
    rows = [TaskSet("knapsack", seed=5)[i] for i in range(2)]
    env = ENVS.get(rows[0]["data_source"])
    expected = asyncio.run(BuiltinModel("builtin:reference").complete(ModelRequest(
        [dict(m) for m in rows[0]["prompt"]], env.tools.schemas(), rows[0], task_id(rows[0]), 0, 0, env.policy,
        env.baselines))).message
    server = PolicyServer(rows)
    with server.running() as base_url:
        client = openai.OpenAI(base_url=base_url, api_key="unused", max_retries=0)
        reply = client.chat.completions.create(model="builtin:reference", messages=rows[0]["prompt"],
                                               tools=env.tools.schemas())
        call = reply.choices[0].message.tool_calls[0]
        assert reply.choices[0].finish_reason == "tool_calls"
        assert (call.function.name, call.function.arguments) == \
               (expected["tool_calls"][0]["function"]["name"], expected["tool_calls"][0]["function"]["arguments"])
        with pytest.raises(openai.BadRequestError, match="no task of this server"):
            client.chat.completions.create(model="builtin:reference", messages=[{"role": "user", "content": "hi"}])


def test_a_prompt_two_tasks_share_is_refused_not_guessed():
    first = TaskSet("knapsack", seed=5)[0]
    twin = {**first, "id": "knapsack-twin", "reward_model": {**first["reward_model"], "ground_truth": "{}"}}
    with PolicyServer([first, twin]).running() as base_url:
        client = openai.OpenAI(base_url=base_url, api_key="unused", max_retries=0)
        with pytest.raises(openai.BadRequestError, match="2 different tasks"):
            client.chat.completions.create(model="builtin:reference", messages=first["prompt"])


@pytest.mark.parametrize(("module", "extra", "peer"), [("vf_env", "verifiers", "verifiers"),
                                                       ("openenv_env", "openenv", "openenv")])
def test_without_its_extra_an_adapter_says_what_to_install(module, extra, peer):
    if not missing_modules([peer]):
        pytest.skip(f"{peer} is installed here")
    with pytest.raises(ImportError, match=rf"needs the {extra} extra.*\.\[{extra}\]'.*docs/interop-{extra}\.md"):
        importlib.import_module(f"bc_common.interop.{module}")
