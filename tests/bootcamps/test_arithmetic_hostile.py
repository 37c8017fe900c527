"""The arithmetic bootcamp against hostile model output: the verifier and the calculator stay fast and typed."""
from __future__ import annotations

import asyncio
import time

import pytest

from bc_common.registry import get_bootcamp
from bc_common.tool_runtime import ToolRuntime
from bootcamps.arithmetic.reward import ArithmeticRewardCalculator as Reward

IDENTITY = {"expression": "2 + 3", "expected_result": "5", "tolerance": "1e-6"}


def fenced(value: str) -> str:
    return f'```json\n{{"result": {value}}}\n```'


@pytest.mark.parametrize("value", ['"1e999999999"', '"1e9,999,999"', '"1e 99999999"', '"1/1e999999999"',
                                   '"-1E+99999999"'])
def test_huge_exponents_are_refused_at_once(value):
    started = time.perf_counter()
    assert Reward.extract_output(fenced(value)) is None
    assert Reward.verify_score(fenced(value), IDENTITY) == 0.0
    assert time.perf_counter() - started < 0.5


def test_extraction_is_linear_on_adversarial_fences():
    text = "```{" * 50_000 + "x" * 50_000
    started = time.perf_counter()
    assert Reward.extract_output(text) is None
    assert time.perf_counter() - started < 1.0


@pytest.mark.parametrize("text, expected", [
    (fenced("5"), 5),
    ('a ```json\n{"result": 4}\n``` b ```{"result": "5"}```', 5),  # the last block wins
    ('```python\nx = 1\n```{"result": 3}```', 3),  # a closing fence may open the next block
    ('no fence {"result": 7}', 7),
    (fenced('"2.5e3"'), 2500),
])
def test_extraction_still_finds_answers(text, expected):
    assert Reward.extract_output(text) == expected


@pytest.mark.parametrize("arguments, kind", [
    ('{"expression": "__import__(\\"os\\").system(\\"id\\")"}', "invalid_expression"),
    ('{"expression": "9**9**9"}', "invalid_expression"),
    ('{"expression": "' + "1+" * 3_000_000 + '1"}', "invalid_arguments"),
    ('{"expression": 5}', "invalid_arguments"),
    ('{"expression": "1/0"}', "division_by_zero"),
])
def test_hostile_calculator_arguments_are_typed_errors(arguments, kind):
    runtime = ToolRuntime.from_specs(get_bootcamp("arithmetic").tool_specs())

    async def call():
        session = runtime.session({}, None)
        try:
            return await session.call("calculate", arguments)
        finally:
            await session.close()

    result = asyncio.run(call())
    assert result.error is not None and result.error["type"] == kind, result
    assert result.text.startswith("Error:")


def test_huge_results_come_back_in_scientific_notation():
    runtime = ToolRuntime.from_specs(get_bootcamp("arithmetic").tool_specs())
    session = runtime.session({}, None)
    result = asyncio.run(session.call("calculate", '{"expression": "(10**4096)**3"}'))
    assert result.ok and result.text == "1e+12288"


def test_the_calculator_takes_two_operations_a_call():
    """Issue 23: a calculator that took the whole expression made every group one call (noisy 0.93 on easy, 0.95
    on hard). Now three operations are refused with a typed error, and the reference needs a call per operation."""
    runtime = ToolRuntime.from_specs(get_bootcamp("arithmetic").tool_specs())
    session = runtime.session({}, None)
    assert asyncio.run(session.call("calculate", '{"expression": "(12 + 7) × 3"}')).text == "57"
    refused = asyncio.run(session.call("calculate", '{"expression": "12 + 7 × 3 - 1"}'))
    assert not refused.ok and refused.error["type"] == "too_many_operations"


@pytest.mark.parametrize("name", ["first_number", "whole_expression", "first_steps"])
def test_cheap_answers_score_low_in_every_group(name):
    from bc_common.builtin_model import baseline_trajectory, reference_trajectory
    from bc_common.environment import Environments
    from bc_common.tasks import TaskSet

    env = Environments().get("bootcamp/arithmetic")
    for group in ("easy", "medium", "hard"):
        tasks = TaskSet("arithmetic", seed=5, split="baseline", groups=[group])

        async def play(tasks=tasks) -> tuple[list, list]:
            cheap = [(await baseline_trajectory(tasks[i], env, name))["score"] for i in range(60)]
            ref = [(await reference_trajectory(tasks[i], env))["num_turns"]["tool_calls"] for i in range(10)]
            return cheap, ref

        cheap, calls = asyncio.run(play())
        assert sum(cheap) <= 3, (name, group, sum(cheap))
        assert min(calls) >= 3, (group, calls)  # more than two operations: at least three calls
