"""Porting a seed bootcamp: the seed's base-class names, a generator taking **kwargs without a Config dataclass,
and a tool whose create() returns (instance_id, response), all run through bc-gen's rows and the rollout loop."""
from __future__ import annotations

import asyncio
import random
from typing import Any

from bc_common.bootcamp import (
    BaseInstructionGenerator,
    BaseRewardCalculator,
    BaseTool,
    Bootcamp,
    ReferencePolicy,
    tool_call,
)
from bc_common.builtin_model import reference_trajectory
from bc_common.environment import Environment
from bc_common.tasks import TaskSet
from bc_common.tool_runtime import ToolRuntime


class EchoInstructionGenerator(BaseInstructionGenerator):
    """The seed's shape: no Config dataclass, parameters set from **kwargs, super().__init__() with none."""

    def __init__(self, **kwargs: Any):
        super().__init__()
        self.max_value = 10
        for key, value in kwargs.items():
            setattr(self, key, value)

    def case_generator(self) -> dict[str, Any]:
        return {"value": self.rng.randint(1, self.max_value)}

    def prompt_func(self, identity: dict[str, Any]) -> str:
        return "Ask the `reveal` tool for the hidden value and answer <answer>VALUE</answer>."


class EchoReward(BaseRewardCalculator):
    @staticmethod
    def extract_output(output_str: str) -> str | None:
        start, end = output_str.rfind("<answer>"), output_str.rfind("</answer>")
        return output_str[start + 8:end].strip() if 0 <= start < end else None

    @classmethod
    def _verify_correction(cls, extracted: str, identity: dict[str, Any], **kwargs: Any) -> bool:
        return extracted == str(identity["value"])


class RevealTool(BaseTool):
    tool_schema = {"type": "function", "function": {"name": "reveal", "description": "The hidden value.",
                                                    "parameters": {"type": "object", "properties": {}}}}

    async def create(self, instance_id: str | None = None, identity: dict | None = None, **kwargs: Any):
        instance_id = await super().create(instance_id, identity=identity)
        return instance_id, "created"  # the seed's / verl's tuple form

    async def execute(self, instance_id: str, parameters: dict[str, Any], **kwargs: Any):
        return str(self.state(instance_id)["identity"]["value"]), 0.0, {}


class EchoPolicy(ReferencePolicy):
    def respond(self, messages: list[dict[str, Any]], *, wrong: bool = False) -> dict[str, Any]:
        seen = [m["content"] for m in messages if m.get("role") == "tool"]
        if not seen:
            return {"role": "assistant", "content": "", "tool_calls": [tool_call("c0", "reveal", {})]}
        return {"role": "assistant", "content": f"<answer>{int(seen[-1]) + (1 if wrong else 0)}</answer>"}


def test_a_seed_style_bootcamp_runs_unchanged_but_for_imports():
    bootcamp = Bootcamp(description="seed port", generator=EchoInstructionGenerator, reward=EchoReward,
                        policy=EchoPolicy, tools=[RevealTool], name="echo")
    tasks = TaskSet(bootcamp, seed=1, params={"max_value": 1000})
    rows = [tasks[i] for i in range(20)]
    assert len({r["reward_model"]["ground_truth"]["value"] for r in rows}) > 10  # the kwargs reached the generator
    assert TaskSet(bootcamp, seed=1, params={"max_value": 1000})[3] == rows[3]  # seeded through self.rng
    state = random.getstate()
    env = Environment(data_source="bootcamp/echo", reward=EchoReward,
                      tools=ToolRuntime.from_specs(bootcamp.tool_specs()), policy=EchoPolicy)
    for row in rows[:5]:
        right = asyncio.run(reference_trajectory(row, env))
        wrong = asyncio.run(reference_trajectory(row, env, wrong=True))
        assert right["score"] == 1.0 and right["num_turns"]["tool_calls"] == 1
        assert wrong["score"] == 0.0
    assert random.getstate() == state  # nothing drew from the global RNG
