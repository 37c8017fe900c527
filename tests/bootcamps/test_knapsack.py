"""knapsack beyond the conformance suite: the exact optimum, every optimal selection accepted, the gap-closed
score, the tool and its budget, and the cheats (an overweight selection, an item taken twice, a claimed value,
greedy heuristics, the tool as a search)."""
from __future__ import annotations

import asyncio
import itertools
import random

import pytest
from jsonschema import Draft202012Validator

from bc_common.seeding import RecordRandom
from bc_common.tool_runtime import ToolRuntime
from bootcamps.knapsack.generator import KnapsackInstructionGenerator
from bootcamps.knapsack.heuristics import heuristic_floor, heuristic_selections
from bootcamps.knapsack.policy import KnapsackPolicy
from bootcamps.knapsack.reward import KnapsackRewardCalculator, gap_closed
from bootcamps.knapsack.solver import best_selection, selection_problem, totals
from bootcamps.knapsack.tools import EvaluateSelectionTool

from .puzzle_helpers import policy_scores

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


def test_a_worse_selection_scores_the_gap_it_closes_over_the_heuristics() -> None:
    identity = {"weights": [8, 9, 2, 5, 7], "values": [6, 9, 2, 3, 8], "capacity": 15, "optimum": 14, "floor": 13}
    assert VERIFY(_answer([1, 5]), identity) == 1.0
    assert VERIFY(_answer([3, 5]), identity) == 0.0  # 10, below the floor
    assert VERIFY(_answer(heuristic_selections(identity["weights"], identity["values"], 15)["greedy_ratio"]),
                  identity) == 0.0
    assert gap_closed(9, 7, 11) == 0.5 and gap_closed(6, 7, 11) == 0.0 and gap_closed(11, 7, 11) == 1.0
    assert gap_closed(6, 8, 8) == 0.0  # a heuristic already optimal (hand-made task): only the optimum scores


def test_a_missing_floor_is_computed_from_the_items() -> None:
    identity = {"weights": [8, 9, 2, 5, 7], "values": [6, 9, 2, 3, 8], "capacity": 15, "optimum": 14}
    assert heuristic_floor(identity["weights"], identity["values"], 15) == 13
    assert VERIFY(_answer([1, 5]), identity) == 1.0 and VERIFY(_answer([2, 3]), identity) == 0.0


@pytest.mark.parametrize("group", [
    {"min_items": 6, "max_items": 10, "max_weight": 50, "correlation": "weak"},
    {"min_items": 20, "max_items": 28, "max_weight": 100, "correlation": "inverse"},
])
def test_every_task_is_one_the_heuristics_miss(group: dict) -> None:
    for seed in range(15):
        t = _task(seed, **group)
        assert t["floor"] == heuristic_floor(t["weights"], t["values"], t["capacity"]) < t["optimum"]
        for name, items in heuristic_selections(t["weights"], t["values"], t["capacity"]).items():
            assert VERIFY(_answer(items), t) == 0.0, name


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
    for group in ({"min_items": 6, "max_items": 10, "max_weight": 50, "correlation": "weak"},
                  {"min_items": 20, "max_items": 28, "max_weight": 100, "correlation": "inverse"}):
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
    inverse = _task(4, correlation="inverse", max_weight=100)
    assert all(v == max(1, w - 10) for w, v in zip(inverse["weights"], inverse["values"], strict=True))
    with pytest.raises(Exception, match="correlation"):
        KnapsackInstructionGenerator(correlation="anti")


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


def _calls(identity: dict, selections: list) -> list:
    async def go() -> list:
        session = _runtime().session({"evaluate_selection": {"identity": identity}})
        try:
            return [await session.call("evaluate_selection", {"items": i}) for i in selections]
        finally:
            await session.close()

    return asyncio.run(go())


def test_tool_reports_weight_value_and_fit_and_never_rewards() -> None:
    identity = {"weights": [5, 5, 5], "values": [10, 7, 3], "capacity": 10, "optimum": 17, "items": [1, 2]}
    fits, over, twice = _calls(identity, [[1, 2], [1, 2, 3], [1, 1]])
    unknown, typed = _calls(identity, [[4], ["1"]])
    assert fits.text == "Total weight: 10, total value: 17; fits the capacity 10." and fits.reward == 0.0
    assert over.ok and "over the capacity 10 by 5" in over.text
    assert twice.error["type"] == "invalid_selection" and "more than once" in twice.text
    assert unknown.error["type"] == "invalid_selection" and "no such item" in unknown.text
    assert typed.error["type"] == "invalid_arguments"
    assert "17" not in over.text and "optimum" not in fits.text.lower()


def test_tool_answers_three_checks_a_task_so_it_cannot_drive_a_search() -> None:
    identity = {"weights": [5, 5, 5], "values": [10, 7, 3], "capacity": 10, "optimum": 17, "items": [1, 2]}
    *answered, refused = _calls(identity, [[1], [2], [3], [1, 2]])
    assert all(r.ok for r in answered)
    assert refused.error["type"] == "budget_spent" and "17" not in refused.text


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


@pytest.mark.parametrize("group", ["easy", "hard"])
@pytest.mark.parametrize("baseline", ["greedy", "greedy_value", "swaps", "everything", "tool_search"])
def test_the_cheap_strategies_earn_nothing(baseline: str, group: str) -> None:
    scores = policy_scores("knapsack", f"builtin:baseline/{baseline}", group=group, n=20)
    assert sum(scores) / len(scores) <= 0.1 and sum(s == 1.0 for s in scores) <= 1, scores


def test_noisy_scores_well_below_the_reference() -> None:
    noisy = policy_scores("knapsack", "builtin:noisy", group="medium", n=30)
    assert sum(noisy) / len(noisy) <= 0.9
