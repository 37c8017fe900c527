"""tsp beyond the conformance suite: the exact optimum of small tours, the local search, the gap-closed score, the
tool and its budget, and the cheats (a list that is not a tour, a claimed length, one task's tour on another, the
cheap heuristics up to 2-opt and Or-opt from every start)."""
from __future__ import annotations

import asyncio
import itertools
import math
import random

import pytest
from jsonschema import Draft202012Validator

from bc_common.seeding import RecordRandom
from bc_common.tool_runtime import ToolRuntime
from bootcamps.tsp.generator import TspInstructionGenerator
from bootcamps.tsp.heuristics import heuristic_floor, heuristic_tours
from bootcamps.tsp.policy import TspPolicy
from bootcamps.tsp.reward import TspRewardCalculator, gap_closed
from bootcamps.tsp.search import iterated_local_search, local_search
from bootcamps.tsp.solver import distance, held_karp, matrix, tour_length, tour_problem
from bootcamps.tsp.tools import TourLengthTool

from .puzzle_helpers import policy_scores

VERIFY = TspRewardCalculator.verify_score


def _task(seed: int, **config) -> dict:
    gen = TspInstructionGenerator(**config)
    gen.rng = RecordRandom(seed)
    return gen.case_generator()


def _answer(tour: list[int]) -> str:
    return f'My tour:\n```json\n{{"tour": {tour}}}\n```'


def test_held_karp_is_the_brute_force_optimum() -> None:
    rng = random.Random(3)
    for n in range(2, 9):
        for _ in range(15):
            coords = [[rng.randint(0, 60), rng.randint(0, 60)] for _ in range(n)]
            dist = matrix(coords)
            best, tour = held_karp(dist)
            brute = min(tour_length([1, *p], dist) for p in itertools.permutations(range(2, n + 1)))
            assert best == brute == tour_length(tour, dist)
            assert tour_problem(tour, n) is None and tour[0] == 1


def test_local_search_keeps_a_tour_and_never_lengthens_it() -> None:
    rng = random.Random(4)
    for n in (5, 9, 30, 45):
        coords = [[p // 301, p % 301] for p in rng.sample(range(301 * 301), n)]
        dist = matrix(coords)
        start = rng.sample(range(1, n + 1), n)
        improved = local_search(start, dist)
        kicked = iterated_local_search(improved, dist, random.Random(1), 3 * n)
        assert sorted(improved) == sorted(kicked) == list(range(1, n + 1))
        assert tour_length(kicked, dist) <= tour_length(improved, dist) <= tour_length(start, dist)
        assert kicked == iterated_local_search(improved, dist, random.Random(1), 3 * n)  # seeded: same tour
        if n <= 9:  # on small tours the kicked search finds the exact optimum
            assert tour_length(kicked, dist) == held_karp(dist)[0]


def test_distances_round_halves_up_with_integers_only() -> None:
    for dx in range(0, 200, 3):
        for dy in range(0, 200, 7):
            assert distance((0, 0), (dx, dy)) == math.floor(math.sqrt(dx * dx + dy * dy) + 0.5)
    assert distance((0, 0), (1, 1)) == 1  # sqrt 2 = 1.41
    assert distance((3, 4), (0, 0)) == 5


def test_every_shortest_tour_scores_one_whatever_its_start_and_direction() -> None:
    identity = _task(1)
    tour = identity["tour"]
    n = len(tour)
    for k in range(n):
        rotated = tour[k:] + tour[:k]
        assert VERIFY(_answer(rotated), identity) == 1.0
        assert VERIFY(_answer(rotated[::-1]), identity) == 1.0
    assert VERIFY(_answer(tour + tour[:1]), identity) == 1.0  # the return to the start written out


def test_a_longer_tour_scores_the_gap_it_closes_over_the_heuristics() -> None:
    assert gap_closed(110, 120, 100) == 0.5 and gap_closed(120, 120, 100) == 0.0
    assert gap_closed(130, 120, 100) == 0.0
    assert gap_closed(100, 120, 100) == 1.0 and gap_closed(101, 100, 100) == 0.0  # hand-made: heuristic optimal
    identity = _task(2)
    dist = matrix(identity["coords"])
    assert identity["floor"] == heuristic_floor(identity["coords"], dist) > identity["best"]
    worse = TspPolicy(identity)._tour(wrong=True)
    length = tour_length(worse, dist)
    assert length > identity["best"]
    expected = max(0.0, (identity["floor"] - length) / (identity["floor"] - identity["best"]))
    assert VERIFY(_answer(worse), identity) == pytest.approx(expected)
    assert expected < 1.0


def test_every_task_is_one_the_heuristics_miss_by_the_margin() -> None:
    for seed in range(4):
        identity = _task(seed)
        dist = matrix(identity["coords"])
        assert identity["floor"] - identity["best"] >= max(1, 0.002 * identity["best"])
        tours = heuristic_tours(identity["coords"], dist)
        assert {f"nn{k}+oropt" for k in range(1, len(dist) + 1)} <= set(tours)  # Or-opt from every start
        for name, tour in tours.items():
            assert tour_length(tour, dist) >= identity["floor"] > identity["best"]
            assert VERIFY(_answer(tour), identity) == 0.0, name
        without_floor = {k: v for k, v in identity.items() if k != "floor"}
        assert VERIFY(_answer(identity["tour"]), without_floor) == 1.0  # a hand-made identity gets it computed


def test_a_tour_as_short_as_the_best_known_scores_one_and_old_rows_still_grade() -> None:
    identity = _task(1)
    assert VERIFY(_answer(identity["tour"]), identity) == 1.0
    shorter = {**identity, "best": identity["best"] + 5, "floor": identity["floor"] + 5}  # the search fell short
    assert VERIFY(_answer(identity["tour"]), shorter) == 1.0
    legacy = {"coords": identity["coords"], "optimum": identity["best"], "floor": identity["floor"],
              "tour": identity["tour"]}  # rows made when the identity held Held-Karp's exact optimum
    assert VERIFY(_answer(identity["tour"]), legacy) == 1.0


@pytest.mark.parametrize("bad", [
    "repeat", "missing", "unknown", "empty", "twice_round", "float", "negative", "unicode_digit", "huge_exponent"])
def test_lists_that_are_not_a_tour_score_zero(bad: str) -> None:
    identity = _task(3)
    tour = identity["tour"]
    n = len(tour)
    text = {
        "repeat": _answer(tour[:-1] + tour[:1]),
        "missing": _answer(tour[:-1]),
        "unknown": _answer(tour[:-1] + [n + 1]),
        "empty": _answer([]),
        "twice_round": _answer(tour + tour),
        "float": '```json\n{"tour": [' + ", ".join(f"{c}.0" for c in tour) + "]}\n```",
        "negative": _answer([-c for c in tour]),
        "unicode_digit": '{"tour": [' + ", ".join(["١"] + [str(c) for c in tour[1:]]) + "]}",
        "huge_exponent": '{"tour": [1e999999999]}',
    }[bad]
    assert VERIFY(text, identity) == 0.0


def test_a_claimed_length_is_ignored_only_the_tour_counts() -> None:
    identity = _task(4)
    claim = f"The optimal length is {identity['best']}, I checked it with the tool."
    assert VERIFY(claim, identity) == 0.0
    in_order = list(range(1, len(identity["tour"]) + 1))
    length = tour_length(in_order, matrix(identity["coords"]))
    expected = max(0.0, (identity["floor"] - length) / (identity["floor"] - identity["best"]))
    assert VERIFY(claim + "\n" + _answer(in_order), identity) == pytest.approx(expected)


def test_the_last_tour_in_the_text_is_graded() -> None:
    identity = _task(5)
    tour = identity["tour"]
    assert VERIFY(_answer(tour[::-1][:-1]) + "\nActually:\n" + _answer(tour), identity) == 1.0
    assert VERIFY(_answer(tour) + "\nActually:\n" + _answer(tour[:-1]), identity) == 0.0


def test_one_tasks_tour_rarely_solves_another() -> None:
    tasks = [_task(s, min_cities=30, max_cities=30) for s in range(10)]
    hits = sum(VERIFY(_answer(a["tour"]), b) == 1.0 for a in tasks for b in tasks if a is not b)
    assert hits <= 0.02 * 10 * 9


def test_generation_is_exact_seeded_and_bounded() -> None:
    a, b = _task(9, min_cities=40, max_cities=40), _task(9, min_cities=40, max_cities=40)
    assert a == b
    assert a["best"] == tour_length(a["tour"], matrix(a["coords"]))
    assert len({tuple(c) for c in a["coords"]}) == 40  # distinct cities
    assert all(0 <= x <= 300 and 0 <= y <= 300 for x, y in a["coords"])
    with pytest.raises(Exception, match="max_cities"):
        TspInstructionGenerator(max_cities=61)
    with pytest.raises(Exception, match="max_cities"):
        TspInstructionGenerator(min_cities=31, max_cities=30)
    with pytest.raises(Exception, match="min_cities"):
        TspInstructionGenerator(min_cities=12, max_cities=12)  # the heuristics find almost every best tour


def test_prompt_has_the_table_but_not_the_answer() -> None:
    gen = TspInstructionGenerator()
    gen.rng = RecordRandom(7)
    identity = gen.case_generator()
    prompt = gen.prompt_func(identity)
    dist = matrix(identity["coords"])
    assert " ".join(str(x) for x in dist[0][1:3]) in " ".join(prompt.split())
    assert str(identity["tour"])[1:-1] not in prompt
    assert VERIFY(prompt, identity) == 0.0


def _runtime() -> ToolRuntime:
    return ToolRuntime({"tour_length": TourLengthTool(tool_schema=TourLengthTool.tool_schema)})


def _calls(identity: dict, arguments: list) -> list:
    async def go() -> list:
        session = _runtime().session({"tour_length": {"identity": identity}})
        try:
            return [await session.call("tour_length", a) for a in arguments]
        finally:
            await session.close()

    return asyncio.run(go())


def test_tool_reports_length_or_what_is_wrong_and_never_rewards() -> None:
    identity = _task(6)
    tour = identity["tour"]
    ok, repeat, short = _calls(identity, [{"tour": tour}, {"tour": tour[:-1] + tour[:1]}, {"tour": [1, 2]}])
    wrong_type, huge, extra = _calls(identity, [{"tour": "1,2"}, {"tour": list(range(1000))},
                                                '{"tour": [1, 2], "optimum": 1}'])
    assert ok.ok and ok.text == f"Tour length: {identity['best']}" and ok.reward == 0.0
    assert repeat.error["type"] == "invalid_tour" and "more than once" in repeat.text
    assert short.error["type"] == "invalid_tour" and "never visited" in short.text
    assert wrong_type.error["type"] == "invalid_arguments"
    assert huge.error["type"] == "invalid_tour"
    assert extra.error["type"] == "invalid_arguments"  # no hidden parameter to pass back


def test_tool_answers_three_checks_a_task_so_it_cannot_drive_a_search() -> None:
    identity = _task(6)
    n = len(identity["coords"])
    *answered, refused = _calls(identity, [{"tour": list(range(1, n + 1))}] * 3 + [{"tour": identity["tour"]}])
    assert all(r.ok for r in answered)
    assert refused.error["type"] == "budget_spent" and str(identity["best"]) not in refused.text


def test_tool_does_not_tell_the_optimum_of_a_longer_tour() -> None:
    identity = _task(8)
    worse = TspPolicy(identity)._tour(wrong=True)

    async def go() -> str:
        session = _runtime().session({"tour_length": {"identity": identity}})
        try:
            return (await session.call("tour_length", {"tour": worse})).text
        finally:
            await session.close()

    text = asyncio.run(go())
    assert str(identity["best"]) not in text


def test_reference_checks_with_the_tool_then_answers() -> None:
    identity = _task(10)
    policy = TspPolicy(identity, tools=["tour_length"])
    first = policy.respond([{"role": "user", "content": "..."}])
    assert first["tool_calls"][0]["function"]["name"] == "tour_length"
    done = policy.respond([{"role": "user", "content": "..."}, first,
                           {"role": "tool", "tool_call_id": "call_0", "content": f"Tour length: {identity['best']}"}])
    assert "tool_calls" not in done and VERIFY(done["content"], identity) == 1.0
    assert VERIFY(TspPolicy(identity).respond([], wrong=True)["content"], identity) < 1.0


def test_generated_identities_match_the_identity_schema() -> None:
    validator = Draft202012Validator(TspRewardCalculator.identity_schema)
    for seed in range(3):
        assert not list(validator.iter_errors(_task(seed)))
    assert list(validator.iter_errors({"coords": [[1, 2]], "optimum": -1}))
    assert list(validator.iter_errors({"coords": [[1, 2]]}))  # neither the best known nor the optimum


@pytest.mark.parametrize("group", ["easy", "hard"])
@pytest.mark.parametrize("baseline", ["order", "nearest", "nearest_best", "two_opt", "two_opt_random",
                                      "two_opt_all", "or_opt", "or_opt_all", "sweep", "tool_search"])
def test_the_cheap_tours_earn_nothing(baseline: str, group: str) -> None:
    scores = policy_scores("tsp", f"builtin:baseline/{baseline}", group=group, n=8)
    assert sum(scores) / len(scores) <= 0.1 and sum(s == 1.0 for s in scores) <= 1, scores
