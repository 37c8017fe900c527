"""knapsack beyond the conformance suite: the exact optimum, every optimal selection accepted, the ratio score,
the tool, and the cheats (an overweight selection, an item taken twice, a claimed value)."""
from __future__ import annotations

import asyncio
import itertools
import random

import pytest
from jsonschema import Draft202012Validator

from bc_common.seeding import RecordRandom
from bc_common.tool_runtime import ToolRuntime
from bootcamps.knapsack.generator import KnapsackInstructionGenerator
from bootcamps.knapsack.policy import KnapsackPolicy
from bootcamps.knapsack.reward import KnapsackRewardCalculator
from bootcamps.knapsack.solver import best_selection, selection_problem, totals
from bootcamps.knapsack.tools import EvaluateSelectionTool

VERIFY = KnapsackRewardCalculator.verify_score


def _task(seed: int, **config) -> dict:
    gen = KnapsackInstructionGenerator(**config)
    gen.rng = RecordRandom(seed)
    return gen.case_generator()


def _answer(items: list[int]) -> str:
    return f'I take these:\n```json\n{{"items": {items}}}\n```'


def test_dp_is_the_brute_force_optimum() -> None:
    rng = random.Random(2)
    for _ in range(300):
        n = rng.randint(1, 11)
        weights = [rng.randint(1, 30) for _ in range(n)]
        values = [rng.randint(1, 30) for _ in range(n)]
        capacity = rng.randint(0, sum(weights))
        best, chosen = best_selection(weights, values, capacity)
        brute = max(sum(values[i] for i in s) for k in range(n + 1) for s in itertools.combinations(range(n), k)
                    if sum(weights[i] for i in s) <= capacity)
        assert best == brute == totals(chosen, weights, values)[1]
        assert selection_problem(chosen, weights, capacity) is None


def test_every_optimal_selection_scores_one_not_just_the_stored_one() -> None:
    identity = {"weights": [3, 3, 4, 2], "values": [5, 5, 6, 1], "capacity": 6, "optimum": 10, "items": [1, 2]}
    assert best_selection(identity["weights"], identity["values"], 6)[0] == 10
    assert VERIFY(_answer([1, 2]), identity) == 1.0
    assert VERIFY(_answer([2, 1]), identity) == 1.0
    identity = {"weights": [3, 3, 6], "values": [5, 5, 10], "capacity": 6, "optimum": 10, "items": [1, 2]}
    assert VERIFY(_answer([3]), identity) == 1.0  # another selection of the same value


def test_a_worse_selection_scores_the_ratio() -> None:
    identity = _task(1)
    worse = KnapsackPolicy(identity)._items(wrong=True)
    value = totals(worse, identity["weights"], identity["values"])[1]
    assert value < identity["optimum"]
    assert VERIFY(_answer(worse), identity) == pytest.approx(value / identity["optimum"])


@pytest.mark.parametrize("bad", ["twice", "unknown", "zero", "empty", "float", "everything"])
def test_infeasible_or_malformed_selections_score_zero(bad: str) -> None:
    identity = _task(2)
    items, n = identity["items"], len(identity["weights"])
    text = {
        "twice": _answer(items + items[:1]),
        "unknown": _answer(items + [n + 1]),
        "zero": _answer([0] + items),
        "empty": _answer([]),
        "float": '{"items": [' + ", ".join(f"{i}.0" for i in items) + "]}",
        "everything": _answer(list(range(1, n + 1))),  # over the capacity: generation keeps it below the total
    }[bad]
    assert VERIFY(text, identity) == 0.0


def test_overweight_is_zero_even_when_more_valuable() -> None:
    identity = {"weights": [5, 5, 5], "values": [10, 10, 10], "capacity": 10, "optimum": 20, "items": [1, 2]}
    assert VERIFY(_answer([1, 2, 3]), identity) == 0.0  # value 30 > optimum, weight 15 > 10


def test_a_claimed_value_earns_nothing() -> None:
    identity = _task(3)
    assert VERIFY(f"The best total value is {identity['optimum']}.", identity) == 0.0


def test_one_tasks_selection_rarely_solves_another() -> None:
    for group in ({"min_items": 6, "max_items": 10, "max_weight": 50, "correlation": "uncorrelated"},
                  {"min_items": 25, "max_items": 35, "max_weight": 300, "correlation": "strong"}):
        tasks = [_task(s, **group) for s in range(50)]
        hits = sum(VERIFY(_answer(a["items"]), b) == 1.0 for a in tasks for b in tasks if a is not b)
        assert hits <= 0.02 * 50 * 49, group


def test_correlation_classes_shape_the_values() -> None:
    strong = _task(4, correlation="strong", max_weight=300)
    assert all(v == w + 30 for w, v in zip(strong["weights"], strong["values"], strict=True))
    weak = _task(4, correlation="weak", max_weight=300)
    assert all(abs(v - w) <= 30 or v == 1 for w, v in zip(weak["weights"], weak["values"], strict=True))
    for seed in range(30):
        t = _task(seed)
        assert min(t["weights"]) <= t["capacity"] < sum(t["weights"])  # something fits, not everything
        assert t["optimum"] == best_selection(t["weights"], t["values"], t["capacity"])[0]
    with pytest.raises(Exception, match="correlation"):
        KnapsackInstructionGenerator(correlation="inverse")


def test_prompt_lists_the_items_but_not_the_answer() -> None:
    gen = KnapsackInstructionGenerator()
    gen.rng = RecordRandom(5)
    identity = gen.case_generator()
    prompt = gen.prompt_func(identity)
    assert f"at most {identity['capacity']}" in prompt
    assert len([line for line in prompt.splitlines() if line.strip()[:1].isdigit()]) == len(identity["weights"])
    assert VERIFY(prompt, identity) == 0.0


def _runtime() -> ToolRuntime:
    return ToolRuntime({"evaluate_selection": EvaluateSelectionTool(tool_schema=EvaluateSelectionTool.tool_schema)})


def test_tool_reports_weight_value_and_fit_and_never_rewards() -> None:
    identity = {"weights": [5, 5, 5], "values": [10, 7, 3], "capacity": 10, "optimum": 17, "items": [1, 2]}

    async def go() -> list:
        session = _runtime().session({"evaluate_selection": {"identity": identity}})
        try:
            return [await session.call("evaluate_selection", {"items": i}) for i in
                    ([1, 2], [1, 2, 3], [1, 1], [4], ["1"])]
        finally:
            await session.close()

    fits, over, twice, unknown, typed = asyncio.run(go())
    assert fits.text == "Total weight: 10, total value: 17; fits the capacity 10." and fits.reward == 0.0
    assert over.ok and "over the capacity 10 by 5" in over.text
    assert twice.error["type"] == "invalid_selection" and "more than once" in twice.text
    assert unknown.error["type"] == "invalid_selection" and "no such item" in unknown.text
    assert typed.error["type"] == "invalid_arguments"
    assert "17" not in over.text and "optimum" not in fits.text.lower()


def test_reference_checks_with_the_tool_then_answers() -> None:
    identity = _task(6)
    policy = KnapsackPolicy(identity, tools=["evaluate_selection"])
    first = policy.respond([{"role": "user", "content": "..."}])
    assert first["tool_calls"][0]["function"]["name"] == "evaluate_selection"
    done = policy.respond([{"role": "user", "content": "..."}, first,
                           {"role": "tool", "tool_call_id": "call_0", "content": "Total weight: ..."}])
    assert "tool_calls" not in done and VERIFY(done["content"], identity) == 1.0


def test_generated_identities_match_the_identity_schema() -> None:
    validator = Draft202012Validator(KnapsackRewardCalculator.identity_schema)
    for seed in range(20):
        assert not list(validator.iter_errors(_task(seed)))
    assert list(validator.iter_errors({"weights": [1], "values": [1], "capacity": 1}))
